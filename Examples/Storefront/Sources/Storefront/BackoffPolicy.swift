import Foundation

/// How long the client waits before it sends a call the backend answered 429 or 503 again, and
/// when it stops. Three sends at most either way.
public enum BackoffPolicy: String, Sendable, CaseIterable {
    /// What release 3.4.0 shipped: 1 s, then 2 s, whatever the answer's `Retry-After` says. A
    /// server that asked for 5 s gets the call again after 1 s.
    case fixedSteps
    /// Release 3.4.1: the answer's `Retry-After` (delta-seconds or an HTTP-date), 1 s then 2 s
    /// when it gives none; a wait over a minute is not sat out but reported to the shopper.
    case serverAdvised

    /// At most this many sends of one call.
    public static let maxAttempts = 3
    /// The longest wait the client sits out itself, in seconds.
    public static let longestWait = 60

    /// Seconds to wait before send number `attempt + 1`, or `nil` to stop and report.
    /// - Parameters:
    ///   - attempt: the send that was just refused, from 1.
    ///   - advised: the answer's `Retry-After` in seconds, when it had a usable one.
    public func wait(after attempt: Int, advised: Int?) -> Int? {
        guard attempt < Self.maxAttempts else { return nil }
        let steps = 1 << (attempt - 1)
        switch self {
        case .fixedSteps:
            return steps
        case .serverAdvised:
            let wait = advised ?? steps
            return wait <= Self.longestWait ? wait : nil
        }
    }
}
