import Foundation

/// Reads a `Retry-After` header value (RFC 9110 section 10.2.3).
public enum RetryAfter {
    /// The wait the value asks for.
    ///
    /// - delta-seconds (`"120"`) give that many seconds;
    /// - an HTTP-date gives the time from `now` until it, or zero when it is already past;
    /// - anything else (negative numbers, prose, a malformed date) gives `nil`.
    public static func parse(_ value: String?, now: Date) -> Duration? {
        guard let value else { return nil }
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        if trimmed.allSatisfy(\.isASCIIDigit) {
            // Digits too many for an Int are still a (very long) wait, not garbage.
            return .seconds(Int(trimmed) ?? Int.max)
        }
        guard let date = HTTPDate.parse(trimmed, now: now) else { return nil }
        let interval = date.timeIntervalSince(now)
        return interval > 0 ? .seconds(interval.rounded(.up)) : .zero
    }
}

extension Character {
    /// `0`...`9` only: `Character.isNumber` also accepts other scripts' digits and fractions.
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
