/// Why a call failed, as the screens tell it apart.
public enum TaskBoardError: Error, Sendable, Hashable {
    /// No session: sign in first.
    case signedOut
    /// The session ended (a refresh was refused, or the renewed token was refused too).
    case sessionEnded
    /// Wrong email or password.
    case badCredentials
    /// Any other refusal, with its status.
    case server(status: Int)
    /// The answer could not be read.
    case badBody
    /// No answer.
    case network
}
