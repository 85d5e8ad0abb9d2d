import ScenarioEngine
import ScenarioTraces

/// What `redact`, `import` and `export` say of bodies that are not text and whose structure
/// could not be read (an image, compressed bytes, a format the reader does not know), and the
/// flag that leaves such bodies out.
enum UnreadBodies {
    /// The flag's name.
    static let flag = "--drop-unreadable-bodies"

    /// The flag, as each of the three commands lists it.
    static let option = OptionSpec.flag(
        flag, "Leave out bodies that are not text and could not be read (kept by default, secrets in them masked only where found)")

    /// `; kept 1 binary body it could not read (1 image/png): …`, or nothing when every body was read.
    static func note(_ report: TraceRedactor.Report) -> String {
        var note = ""
        if let dropped = report.droppedSummary { note += "; left out \(dropped)" }
        if let kept = report.unreadSummary {
            note +=
                "; kept \(kept): a secret inside is masked only where the capture shows it elsewhere, as a JWT or a key, or after a credential's name; \(flag) leaves such bodies out"
        }
        return note
    }
}
