/**
 * Tests that need something outside the repository (the drivers' spec tests next to the
 * checkout, pymongo on the machine) declare it here. When it is missing, their suite is still
 * defined, every test in it reported as skipped under a title that says why, and the reason is
 * printed once, so a checkout without it passes and says clearly what it did not run.
 */
import { describe } from 'vitest';

/** `describe(title, body)` when `missing` is undefined; otherwise the same suite, skipped, titled with the reason. */
export function describeWhenAvailable(title: string, missing: string | undefined, body: () => void): void {
  if (missing === undefined) {
    describe(title, body);
    return;
  }
  console.warn(`[skipped] ${title}: ${missing}`);
  describe.skip(`${title} (skipped: ${missing})`, body);
}
