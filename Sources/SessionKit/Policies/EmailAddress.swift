import Foundation

/// A light syntax check of an email address: enough to catch typos before a request;
/// the server has the last word.
public enum EmailAddress {
    /// The outcome of a check.
    public enum Validity: Sendable, Hashable {
        /// Looks like an address (trimmed).
        case valid(String)
        /// Empty or blank.
        case missing
        /// Not shaped like `local@domain.tld`.
        case malformed
    }

    /// Checks `text`.
    public static func validate(_ text: String) -> Validity {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return .missing }
        let halves = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        guard halves.count == 2, !halves[0].isEmpty,
            !trimmed.contains(where: { $0.isWhitespace })
        else { return .malformed }
        let labels = halves[1].split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, labels.allSatisfy({ !$0.isEmpty }) else { return .malformed }
        return .valid(trimmed)
    }
}
