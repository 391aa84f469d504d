/** "1 webhook", "2 webhooks", "1,200 QR codes": a count with its noun in the right number. */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}
