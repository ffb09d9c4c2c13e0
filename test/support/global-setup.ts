// Builds the test data set once before any test file runs, so files that need it (the local-server test,
// the APS invariants on the built documents) never build it at the same time.
import { prepareTestDataset } from "../../support/test-dataset.ts";

export default async function setup(): Promise<void> {
  await prepareTestDataset();
}
