import Foundation

/// Compares transcripts the way a backend reads them: a JSON body is the same body whatever the
/// order of its object keys (`JSONEncoder` does not promise one), everything else byte for byte.
/// The transcript itself keeps the bytes the stack sent; only the comparison reads bodies as JSON.
public enum TranscriptComparison {
    /// Whether two transcript lines say the same thing: equal text, or equal text before a JSON
    /// body and JSON bodies equal as values (object keys in any order, numbers by value).
    public static func sameLine(_ first: String, _ second: String) -> Bool {
        if first == second { return true }
        guard let one = split(first), let other = split(second) else { return false }
        return one.head == other.head && one.body == other.body
    }

    /// The index of the first line where `second` differs from `first` (a missing line counts as
    /// differing), or `nil` when both say the same thing line by line.
    public static func firstDifference(_ first: [String], _ second: [String]) -> Int? {
        let shared = min(first.count, second.count)
        if let line = (0..<shared).first(where: { !sameLine(first[$0], second[$0]) }) { return line }
        return first.count == second.count ? nil : shared
    }

    /// A line cut where its body starts: the text before it and the body read as JSON; `nil` when
    /// the line ends in no JSON object or array. A body is written last, after two spaces, as
    /// compact JSON, so the first such suffix that reads as a whole JSON value is the body.
    static func split(_ line: String) -> (head: Substring, body: JSONValue)? {
        let bytes = Array(line.utf8)
        guard let last = bytes.last, last == UInt8(ascii: "}") || last == UInt8(ascii: "]"), bytes.count > 3 else { return nil }
        let space = UInt8(ascii: " ")
        for index in 2..<bytes.count where bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "[") {
            guard bytes[index - 1] == space, bytes[index - 2] == space else { continue }
            if let body = JSONValue.parse(Data(bytes[index...])) {
                let head = line.utf8.index(line.utf8.startIndex, offsetBy: index)
                return (line[..<head], body)
            }
        }
        return nil
    }
}

extension ScenarioResult {
    /// Whether `other` ended the same way with the same transcript, JSON bodies compared as
    /// values (see ``TranscriptComparison``): what `--repeat` asks of every run.
    public func isSameRun(as other: ScenarioResult) -> Bool {
        status == other.status && TranscriptComparison.firstDifference(transcript, other.transcript) == nil
    }
}
