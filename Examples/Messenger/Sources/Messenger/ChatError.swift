/// Why a call failed, as the screens tell it apart.
public enum ChatError: Error, Sendable, Hashable {
    /// Nobody is signed in.
    case signedOut
    /// The session ended under the user: a refresh was refused.
    case sessionEnded
    /// Wrong email or password.
    case badCredentials
    /// The call was cancelled (its screen went away, or the user signed out).
    case cancelled
    /// Any other refusal, with its status.
    case server(status: Int)
    /// The answer could not be read.
    case badBody
    /// No answer.
    case network
}
