/**
 * What the two probe files (`a`, `b`) of a runner's example must have reported, whichever runner
 * ran them (Vitest, Jest): one server for the whole run, or one per worker on the test clock;
 * either way every server is stopped once the run is over.
 */
import { expect } from 'vitest';
import { listening, type ExampleProject } from './example_project.js';

const URI = /^mongodb:\/\/127\.0\.0\.1:\d+\/$/;

/** Both probes were handed the one server of the run (system clock), and it is stopped. */
export async function expectOneServerForTheRun(project: ExampleProject): Promise<void> {
  const { 'a.json': a, 'b.json': b, ...rest } = project.probes();
  expect(rest).toEqual({});
  const uri = a!.uri as string;
  expect(uri).toMatch(URI);
  expect([a!.worker, b!.worker].every((w) => w === '1' || w === '2')).toBe(true);
  expect({ ...a, worker: 'w' }).toEqual({ worker: 'w', uri, workerUris: null, clock: 'system' });
  expect({ ...b, worker: 'w' }).toEqual({ worker: 'w', uri, workerUris: null, clock: 'system' });
  expect(await listening(uri)).toBe(false);
}

/** Each probe was handed its worker's own server (manual clock), two in all, all stopped. */
export async function expectOneServerPerWorker(project: ExampleProject): Promise<void> {
  const probes = project.probes();
  expect(Object.keys(probes)).toEqual(['a.json', 'b.json']);
  const workerUris = JSON.parse(probes['a.json']!.workerUris as string) as string[];
  expect(workerUris).toHaveLength(2);
  expect(new Set(workerUris).size).toBe(2);
  for (const uri of workerUris) expect(uri).toMatch(URI);
  for (const report of Object.values(probes)) {
    const worker = Number(report.worker);
    expect(report).toEqual({ worker: String(worker), uri: workerUris[worker - 1], workerUris: JSON.stringify(workerUris), clock: 'manual' });
  }
  for (const uri of workerUris) expect(await listening(uri)).toBe(false);
}
