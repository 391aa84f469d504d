import type { z } from 'zod';

/** One line naming each invalid field: "postcode: must be 3 to 10 characters; name: is required". */
export function rowErrorMessage(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const field = issue.path.map(String).join('.');
      return field ? `${field}: ${issue.message}` : issue.message;
    })
    .join('; ');
}
