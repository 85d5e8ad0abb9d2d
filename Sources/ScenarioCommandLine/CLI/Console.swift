import Foundation

/// Where a command's text goes: standard output and standard error, written unbuffered so
/// progress lines appear as scenarios finish and the two streams interleave in order.
struct Console: Sendable {
    /// Writes text to standard output.
    let out: @Sendable (String) -> Void
    /// Writes text to standard error.
    let err: @Sendable (String) -> Void

    /// The process's standard output and standard error.
    static let standard = Console(
        out: { FileHandle.standardOutput.write(Data($0.utf8)) },
        err: { FileHandle.standardError.write(Data($0.utf8)) }
    )
}
