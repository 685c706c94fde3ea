// A Jest reporter that ends the run with the plain closing line CI reads:
// "Tests: N passed, N failed" (", N skipped" when any), alone on its line, after a line saying
// whether the PostgreSQL suite ran (it needs SESSION_STATE_PG_URL; see jest.config.cjs).
class PlainSummaryReporter {
  constructor(_globalConfig, options = {}) {
    this.postgres = options.postgres === true;
  }

  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const tail = skipped > 0 ? `, ${skipped} skipped` : '';
    const postgres = this.postgres
      ? 'PostgreSQL suite: run (SESSION_STATE_PG_URL is set).'
      : 'PostgreSQL suite: NOT RUN - set SESSION_STATE_PG_URL (e.g. postgres://postgres@127.0.0.1:5432/test) to run it.';
    process.stdout.write(`\n${postgres}\nTests: ${results.numPassedTests} passed, ${results.numFailedTests} failed${tail}\n`);
  }
}

module.exports = PlainSummaryReporter;
