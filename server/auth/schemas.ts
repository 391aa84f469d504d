import { z } from 'zod';
import { typedText } from '../text/typed-text.ts';
import { roleSchema } from './roles.ts';

export const createApiKeyBodySchema = z.object({
  role: roleSchema.describe('admin: everything; editor: create, change, delete, import; viewer: read only'),
  name: typedText().trim().min(1).max(200).describe('What the key is for'),
  organization_uuid: z.string().optional().describe("Defaults to the caller's organization"),
});

export const issuedApiKeySchema = z.object({
  api_key: z.string(),
  api_secret: z.string().describe('Shown once; only its hash is stored'),
  role: roleSchema,
  organization_uuid: z.string(),
});

export const apiKeySchema = z.object({
  api_key: z.string(),
  name: z.string(),
  role: roleSchema,
  organization_uuid: z.string(),
  created_on: z.string(),
});

export const apiKeyListSchema = z.object({ items: z.array(apiKeySchema) });
export const apiKeyParamsSchema = z.object({ api_key: z.string() });

/** Who the credential in use is: what a client (the GUI) needs to know after signing in. */
export const sessionSchema = z.object({
  api_key: z.string(),
  name: z.string().describe('Name of the API key'),
  role: roleSchema,
  organization_uuid: z.string(),
  organization_name: z.string(),
});
export type Session = z.infer<typeof sessionSchema>;
