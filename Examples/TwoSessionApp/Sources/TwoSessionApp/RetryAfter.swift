import Foundation

/// `Retry-After` as RFC 9110 10.2.3 writes it: delta-seconds or an HTTP-date.
public enum RetryAfter {
    /// Seconds to wait from `now`, or `nil` for a missing or unreadable value.
    public static func seconds(_ value: String?, now: Date) -> Int? {
        guard let text = value?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            // Clamp absurd values instead of overflowing; anything this long is "too long" anyway.
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
