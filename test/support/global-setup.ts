/**
 * Runs once before the whole test run. Later pieces (PostgreSQL schema per run, browser checks)
 * hook in here so that a missing prerequisite fails the run with a clear message, never a skip.
 */
export default async function setup(): Promise<void> {}
