/// Why the client declared the session over; the auth session ends it accordingly.
public enum SessionEndReason: String, Sendable, Hashable, Codable {
    /// A 403 on an authenticated call: the account is blocked (wipe, one alert).
    case blocked
    /// 401 `TOKEN_INVALID`.
    case tokenInvalid
    /// The refresh failed, or the repeated request got a 401 again.
    case sessionExpired
    /// 403 `USER_INACTIVE` or `active: false`.
    case accountInactive
    /// 403 `USER_DELETED` or `is_deleted: true`.
    case accountDeleted
}

extension SessionEndReason {
    /// What a caller whose request ended the session for this reason is told.
    public var error: APIError {
        switch self {
        case .blocked: .forbidden
        case .tokenInvalid: .tokenInvalid
        case .sessionExpired: .sessionExpired
        case .accountInactive: .accountInactive
        case .accountDeleted: .accountDeleted
        }
    }
}
