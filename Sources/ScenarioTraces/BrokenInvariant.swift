import Foundation
import ScenarioEngine

/// What a ``URLSessionRecorder`` that watches invariants saw break in the app's own traffic, for
/// a debug build to show (a banner) or attach to a bug report (``file``).
///
/// Every text and URL in it is redacted as the saved trace is: the same secret reads as the same
/// placeholder here and in the file.
public struct BrokenInvariant: Sendable, Hashable {
    /// One request that took part in breaking the rule.
    public struct Request: Sendable, Hashable {
        /// The method (`POST`).
        public var method: String
        /// The URL, secrets redacted.
        public var url: String
        /// The answer's status; `nil` when the request failed or had no answer yet.
        public var status: Int?
        /// When the app sent it (the device's clock).
        public var sent: Date
        /// Where it is in the saved trace (`log.entries[entry]`); `nil` when it is not there.
        public var entry: Int?

        /// Creates a description of a request.
        public init(method: String, url: String, status: Int?, sent: Date, entry: Int?) {
            self.method = method
            self.url = url
            self.status = status
            self.sent = sent
            self.entry = entry
        }
    }

    /// The invariant's `id` in its file (`refresh-token-spent-once`).
    public var invariant: String
    /// The invariant's `description`: what it protects.
    public var description: String
    /// What happened, naming requests as `#n` (the `n`th request of the saved trace).
    public var message: String
    /// The requests involved, in the order they were sent.
    public var requests: [Request]
    /// The saved trace (redacted HAR); `nil` when it could not be written.
    public var file: URL?
    /// When the rule was seen to break (the device's clock).
    public var date: Date

    /// Creates a description of a broken invariant.
    public init(invariant: String, description: String, message: String, requests: [Request], file: URL?, date: Date) {
        self.invariant = invariant
        self.description = description
        self.message = message
        self.requests = requests
        self.file = file
        self.date = date
    }
}
