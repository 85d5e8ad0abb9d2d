/// What the app knows about the backend.
public enum HealthStatus: String, Sendable, Hashable, Codable {
    /// Not checked yet.
    case unknown
    /// `/health` answered 2xx.
    case healthy
    /// `/health` failed: a non-2xx status or no answer.
    case serverDown
    /// The device is offline; `/health` was not called.
    case offline
}
