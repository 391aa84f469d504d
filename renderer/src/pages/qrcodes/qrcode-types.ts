import type { BodyOf, Schemas } from '../../api/types.ts';

export type QrCode = Schemas['QrCode'];
export type CreateQrCode = BodyOf<'postQrcodes'>;
export type UpdateQrCode = BodyOf<'patchQrcodesByUuid'>;
