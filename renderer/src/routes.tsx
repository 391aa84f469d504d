import type { ReactNode } from 'react';
import { AppointmentsPage } from './pages/appointments/AppointmentsPage.tsx';
import { ImportHandlersPage } from './pages/appointments/ImportHandlersPage.tsx';
import { ServicesPage } from './pages/appointments/ServicesPage.tsx';
import { DecryptPage } from './pages/decrypt/DecryptPage.tsx';
import { EventsPage } from './pages/events/EventsPage.tsx';
import { DraftPage } from './pages/import-drafts/DraftPage.tsx';
import { ImportsPage } from './pages/imports/ImportsPage.tsx';
import { ComparePage } from './pages/inspector/ComparePage.tsx';
import { InboxPage } from './pages/inspector/InboxPage.tsx';
import { InspectorPage } from './pages/inspector/InspectorPage.tsx';
import { MessagePage } from './pages/inspector/MessagePage.tsx';
import { QrCodesPage } from './pages/qrcodes/QrCodesPage.tsx';
import { RemoteServicesPage } from './pages/remote/RemoteServicesPage.tsx';
import { RemoteTaskPage } from './pages/remote/RemoteTaskPage.tsx';
import { RemoteTasksPage } from './pages/remote/RemoteTasksPage.tsx';
import { SettingsPage } from './pages/settings/SettingsPage.tsx';
import { TaskListPage } from './pages/tasks/TaskListPage.tsx';
import { TaskPage } from './pages/tasks/TaskPage.tsx';
import { WebhookPage } from './pages/webhooks/WebhookPage.tsx';
import { WebhooksPage } from './pages/webhooks/WebhooksPage.tsx';

export interface PageRoute {
  /** "/tasks/:uuid": segments starting with ":" are parameters. */
  path: string;
  /** The navigation entry this page belongs to (highlighted while it is open). */
  section: string;
  render(params: Record<string, string>): ReactNode;
}

export interface NavEntry {
  section: string;
  label: string;
  path: string;
}

/** The side navigation, in order. */
export const NAV: NavEntry[] = [
  { section: 'imports', label: 'Imports', path: '/imports' },
  { section: 'tasks', label: 'Tasks', path: '/tasks' },
  { section: 'qrcodes', label: 'QR codes', path: '/qrcodes' },
  { section: 'appointments', label: 'Appointments', path: '/appointments' },
  { section: 'events', label: 'Events', path: '/events' },
  { section: 'webhooks', label: 'Webhooks', path: '/webhooks' },
  { section: 'inspector', label: 'Inspector', path: '/inspector' },
  { section: 'decrypt', label: 'Decrypt', path: '/decrypt' },
  { section: 'remote', label: 'Remote services', path: '/remote' },
  { section: 'settings', label: 'Settings', path: '/settings' },
];

export const HOME_PATH = '/tasks';
/** Where a server in demo mode opens: the live list of events. */
export const DEMO_HOME_PATH = '/events';

/** Every page; the first whose path matches wins. A capability adds its pages here. */
export const ROUTES: PageRoute[] = [
  { path: '/imports', section: 'imports', render: () => <ImportsPage /> },
  { path: '/imports/drafts/:uuid', section: 'imports', render: (p) => <DraftPage key={p.uuid} uuid={p.uuid ?? ''} /> },
  { path: '/tasks', section: 'tasks', render: () => <TaskListPage /> },
  { path: '/tasks/:uuid', section: 'tasks', render: (p) => <TaskPage uuid={p.uuid ?? ''} /> },
  { path: '/qrcodes', section: 'qrcodes', render: () => <QrCodesPage /> },
  { path: '/appointments', section: 'appointments', render: () => <AppointmentsPage /> },
  { path: '/appointments/services', section: 'appointments', render: () => <ServicesPage /> },
  { path: '/appointments/import-handlers', section: 'appointments', render: () => <ImportHandlersPage /> },
  { path: '/events', section: 'events', render: () => <EventsPage /> },
  { path: '/webhooks', section: 'webhooks', render: () => <WebhooksPage /> },
  { path: '/webhooks/:uuid', section: 'webhooks', render: (p) => <WebhookPage uuid={p.uuid ?? ''} /> },
  { path: '/inspector', section: 'inspector', render: () => <InspectorPage /> },
  { path: '/inspector/:uuid', section: 'inspector', render: (p) => <InboxPage key={p.uuid} uuid={p.uuid ?? ''} /> },
  { path: '/inspector/:uuid/compare', section: 'inspector', render: (p) => <ComparePage inboxUuid={p.uuid ?? ''} /> },
  {
    path: '/inspector/:uuid/messages/:message',
    section: 'inspector',
    render: (p) => <MessagePage key={p.message} inboxUuid={p.uuid ?? ''} messageUuid={p.message ?? ''} />,
  },
  { path: '/decrypt', section: 'decrypt', render: () => <DecryptPage /> },
  { path: '/settings', section: 'settings', render: () => <SettingsPage /> },
  { path: '/remote', section: 'remote', render: () => <RemoteServicesPage /> },
  { path: '/remote/:profile', section: 'remote', render: (p) => <RemoteTasksPage key={p.profile} profile={p.profile ?? ''} /> },
  {
    path: '/remote/:profile/tasks/:uuid',
    section: 'remote',
    render: (p) => <RemoteTaskPage key={`${p.profile}/${p.uuid}`} profile={p.profile ?? ''} uuid={p.uuid ?? ''} />,
  },
];
