import Foundation

/// Reads a `Retry-After` value: delta-seconds (`120`) or an HTTP-date (RFC 9110 10.2.3).
public enum RetryAfter {
    /// Whole seconds to wait from `now`, or `nil` when the value is neither form.
    public static func seconds(from value: String?, now: Date) -> Int? {
        guard let text = value?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            // A huge number is still a number of seconds; clamp instead of overflowing.
            return text.count > 9 ? 999_999_999 : Int(text)
        }
        guard let date = httpDate(text) else { return nil }
        let delta = date.timeIntervalSince(now)
        guard delta.isFinite else { return nil }
        return max(0, Int(delta.rounded(.up)))
    }

    private static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}
