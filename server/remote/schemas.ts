import { z } from 'zod';

/** A connection to a deployment of the service (or another QR Sandbox): base URL and credential. */
export const profileSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'use letters, digits, dot, dash or underscore'),
  base_url: z.url({ protocol: /^https?$/ }),
  api_key: z.string().min(1),
  api_secret: z.string().min(1),
  organization_uuid: z.string().optional(),
});
export type Profile = z.infer<typeof profileSchema>;

/** A profile as the API shows it: never its secret, and how that secret is kept. */
export const publicProfileSchema = profileSchema.omit({ api_secret: true }).extend({
  secret_protection: z
    .string()
    .describe('"none": stored unencrypted (mode 0600); otherwise encrypted, e.g. "electron-safe-storage" by the desktop app'),
});
export type PublicProfile = z.infer<typeof publicProfileSchema>;

/** PUT /api/profiles/{name}: the name is in the path. */
export const profileBodySchema = profileSchema.omit({ name: true });
