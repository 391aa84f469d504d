/** The file in the data folder that holds the first organization's admin key (written at the first start). */
export const CREDENTIALS_FILE = 'credentials.json';
