import Foundation
import ScenarioEngine

/// The `format`s a verification met and does not check. JSON Schema makes an unknown format an
/// annotation that never fails a value, so they are listed beside the tally, not counted as
/// "could not check": by name with how many exchanges met each, and with `--verbose` each place.
extension VerificationReport {
    static func formatsNotChecked(_ run: VerificationRun, verbose: Bool) -> String {
        var exchanges: [String: Int] = [:]
        var places: [String: [DocumentPlace]] = [:]
        for scenario in run.scenarios {
            for exchange in scenario.exchanges {
                var names: Set<String> = []
                for part in exchange.formatsNotChecked {
                    let name = formatName(part.reason)
                    names.insert(name)
                    if let source = part.source, !(places[name] ?? []).contains(source) { places[name, default: []].append(source) }
                }
                for name in names { exchanges[name, default: 0] += 1 }
            }
        }
        guard !exchanges.isEmpty else { return "" }
        let listed = exchanges.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        var out =
            "Formats not checked (an unknown format is an annotation; the values pass it): "
            + listed.map { "'\(TerminalSafe.escape($0.key))' in \($0.value) exchange\($0.value == 1 ? "" : "s")" }.joined(separator: ", ")
            + "\n"
        if verbose {
            for (name, _) in listed {
                for place in places[name] ?? [] { out += "  \(place): format '\(TerminalSafe.escape(name))' not checked\n" }
            }
        }
        return out
    }

    /// `phone-number` of "the format 'phone-number' is not checked".
    private static func formatName(_ reason: String) -> String {
        guard let open = reason.firstIndex(of: "'"), let close = reason[reason.index(after: open)...].firstIndex(of: "'") else {
            return reason
        }
        return String(reason[reason.index(after: open)..<close])
    }

    static func partJSON(_ part: UncheckedPart) -> JSONValue {
        var entry: JSONObject = ["reason": .string(part.reason)]
        if let source = part.source {
            entry["source"] = [
                "file": .string(source.file), "line": .number(Double(source.line)), "column": .number(Double(source.column)),
            ]
        }
        return .object(entry)
    }
}
