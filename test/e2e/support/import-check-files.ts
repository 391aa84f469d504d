/** QR codes: good rows, a place in several states, an unknown place, a bad type and the tag Gate `tag` given twice; `more` rows after. */
export function mixedQrCsv(tag: number, more: string[] = []): string {
  return [
    'location,name,suburb,state,postcode,country,type,tag_name,tag_number',
    ',Darwin depot,Darwin,NT,0800,Australia,SITE,,',
    ',Richmond shop,Richmond,,,Australia,SITE,,',
    ',Nowhere,Nowhere Land,,99999,Australia,SITE,,',
    ',Perth office,Perth,WA,6000,Australia,bad type!,,',
    `,Fitzroy gate,Fitzroy,VIC,3065,Australia,SITE,Gate,${tag}`,
    `,Carlton gate,Carlton,VIC,3053,Australia,SITE,Gate,${tag}`,
    ...more,
  ].join('\r\n');
}

/**
 * Appointments: one good row, one with a service missing from the catalog, one with three problems;
 * tag numbers `${prefix}-1` to `-3`, the first two starting at `starts`.
 */
export function appointmentsCsv(prefix: string, starts: [string, string]): string {
  const at = '"1 Mitchell St, Darwin NT 0800, Australia"';
  return [
    'tag_name,tag_number,start_date_time,location,duration,service,timezone_name',
    `Site,${prefix}-1,${starts[0]},${at},60,Cleaning,`,
    `Site,${prefix}-2,${starts[1]},${at},60,Carpet shampoo,`,
    `Site,${prefix}-3,next tuesday,${at},-5,Cleaning,Melbourne`,
  ].join('\r\n');
}
