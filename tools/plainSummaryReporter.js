// A Jest reporter that ends the run with the plain closing line CI reads:
// "Tests: N passed, N failed" (", N skipped" when any), alone on its line.
class PlainSummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const tail = skipped > 0 ? `, ${skipped} skipped` : '';
    process.stdout.write(`\nTests: ${results.numPassedTests} passed, ${results.numFailedTests} failed${tail}\n`);
  }
}

module.exports = PlainSummaryReporter;
