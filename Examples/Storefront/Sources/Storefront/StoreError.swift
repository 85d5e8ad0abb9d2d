/// Why a call failed, as the screens tell it apart.
public enum StoreError: Error, Sendable, Hashable {
    /// The backend is busy (429 or 503) and the client stopped trying: `retryAfter` is the wait
    /// the last answer asked for, in seconds, when it gave one.
    case busy(status: Int, retryAfter: Int?)
    /// No session, or it ended (the refresh was refused).
    case signedOut
    /// Any other refusal, with its status.
    case server(status: Int)
    /// The answer could not be read.
    case badBody
    /// No answer.
    case network
}
