import fs from 'node:fs';

/** The parts of a V8 .cpuprofile (node --cpu-prof) the profile summaries read. */
export interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
export interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export function readProfile(file: string): Profile {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
}
