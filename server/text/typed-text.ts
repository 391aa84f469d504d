import { z } from 'zod';
import { toNfc } from './unicode.ts';

/**
 * A name, tag or reference as a person types it, in NFC (see unicode.ts), so that the same text
 * typed on a Mac and on Windows is stored, matched and searched as one. Chain trim, min and max on it.
 */
export const typedText = () => z.string().overwrite(toNfc);
