import type { AppMeta, BodyOf, Schemas } from './types.ts';

export type AppointmentSchedule = Schemas['AppointmentSchedule'];
export type AppointmentField = AppMeta['appointment_fields'][number];
export type Service = Schemas['Service'];
export type CreateServiceBody = BodyOf<'postServices'>;
export type UpdateServiceBody = BodyOf<'patchServicesByUuid'>;
export type ImportHandler = Schemas['ImportHandler'];
export type CreateImportHandlerBody = BodyOf<'postImportHandlers'>;
export type UpdateImportHandlerBody = BodyOf<'patchImportHandlersByUuid'>;
