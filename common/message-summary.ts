/** The fields of an inbox message that the inbox.message live event carries: enough for a list row; the GUI fetches the rest. */
export type MessageSummaryField =
  | 'uuid'
  | 'inbox_uuid'
  | 'received_on'
  | 'method'
  | 'decrypted'
  | 'signature_status'
  | 'event_type'
  | 'event_id'
  | 'duplicate_of'
  | 'answer';
