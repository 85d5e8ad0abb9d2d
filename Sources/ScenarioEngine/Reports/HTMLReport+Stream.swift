import Foundation

extension HTMLReport {
    /// The page written as results arrive: the same bytes as ``render(_:)``. Each result's row of
    /// the summary table and its section are set aside on disk as it comes, so a long run holds
    /// no result for the page.
    package final class Stream: SpooledReport, StreamedReport {
        /// Starts a page to be written at `path`.
        package override init(path: String) { super.init(path: path) }

        package func add(_ result: ScenarioResult, at slot: Int) {
            // Every row comes before every section: a row is piece 2 × slot, its section the next.
            setAside(at: 2 * slot) { HTMLReport.summaryRow(result, at: slot) }
            let folder = (path as NSString).deletingLastPathComponent
            setAside(at: 2 * slot + 1) { HTMLReport.section(result, at: slot, pageFolder: folder) }
        }

        package func finish(_ tally: RunTally) throws {
            try write { spool, output in
                let pieces = spool.slots
                try output.write(HTMLReport.head(tally) + HTMLReport.summaryTableHead)
                for piece in pieces where piece % 2 == 0 { try output.write(try spool.piece(at: piece)) }
                try output.write(HTMLReport.summaryTableEnd)
                for piece in pieces where piece % 2 == 1 { try output.write(try spool.piece(at: piece)) }
                try output.write(HTMLReport.end)
            }
        }
    }
}
