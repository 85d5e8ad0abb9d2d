/// Left-aligned text columns separated by two spaces, for `list` and `actions`.
struct TextTable: Sendable {
    /// The rows, each with the same number of cells (short rows are padded).
    var rows: [[String]]

    /// The table as lines ending in newlines, without trailing spaces.
    var text: String {
        let columns = rows.map(\.count).max() ?? 0
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        return rows.map { row in
            var line = ""
            for index in 0..<columns {
                let cell = index < row.count ? row[index] : ""
                line += index == columns - 1 ? cell : HelpText.pad(cell, widths[index]) + "  "
            }
            return String(line.reversed().drop { $0 == " " }.reversed()) + "\n"
        }.joined()
    }
}
