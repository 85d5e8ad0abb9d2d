import Foundation

/// Reads a `Retry-After` header: delta-seconds (`120`) or an HTTP-date (RFC 9110, 10.2.3).
public enum RetryAfter {
    /// Whole seconds to wait from `now`, or `nil` when the value is neither form.
    public static func seconds(from value: String?, now: Date) -> Int? {
        guard let text = value?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if text.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) {
            // Beyond nine digits it is "a very long time"; clamping keeps Int() from overflowing.
            return text.count > 9 ? 999_999_999 : Int(text)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: text) else { return nil }
        let delta = date.timeIntervalSince(now)
        guard delta.isFinite else { return nil }
        return max(0, Int(delta.rounded(.up)))
    }
}
