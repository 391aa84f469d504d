import type { Generated } from 'kysely';

export interface OrganizationTable {
  uuid: string;
  name: string;
  default_timezone: string;
  created_on: string;
}

export interface ApiKeyTable {
  uuid: string;
  api_key: string;
  secret_hash: string;
  role: 'admin' | 'editor' | 'viewer';
  name: string;
  organization_uuid: string;
  created_on: string;
  revoked_on: string | null;
}

export interface BackgroundTaskTable {
  seq: Generated<number>;
  uuid: string;
  task_id: string;
  task_type: string;
  status: 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'FAILED';
  progress: number;
  created_by_uuid: string;
  metadata: string | null;
  organization_uuid: string;
  results: string | null;
  error_message: string | null;
  created_on: string;
  updated_on: string;
}

/** Every table of the app. Each capability's migration adds its own tables here. */
export interface Database {
  organizations: OrganizationTable;
  api_keys: ApiKeyTable;
  background_tasks: BackgroundTaskTable;
}
