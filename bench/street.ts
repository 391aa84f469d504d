const STREETS = [
  'Smith Street',
  'George Street',
  'High Street',
  'Station Road',
  'Church Street',
  'Victoria Parade',
  'King Street',
  'Park Avenue',
];

/** Street address number n of the benchmark data sets (house numbers 1 to 997 on a few common street names). */
export const benchStreet = (n: number): string => `${(n % 997) + 1} ${STREETS[n % STREETS.length]}`;
