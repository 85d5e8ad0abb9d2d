import Foundation

/// The backend's error envelope, read leniently.
///
/// `{"success": false, "error_code": "...", "errors": [{"field": "...", "message": "..."}]}`,
/// where any part may be missing and the body may not be JSON at all; whatever cannot be read
/// is simply absent.
public struct ErrorEnvelope: Sendable, Hashable {
    /// The machine-readable code, such as `TOKEN_EXPIRED`.
    public var errorCode: ErrorCode?
    /// The listed errors; entries without a message are skipped.
    public var errors: [FieldError]

    /// Creates an envelope.
    public init(errorCode: ErrorCode? = nil, errors: [FieldError] = []) {
        self.errorCode = errorCode
        self.errors = errors
        self.firstMessage = Self.nonBlank(errors.first?.message)
    }

    /// A blank message is no message: callers fall back to their own text.
    private static func nonBlank(_ text: String?) -> String? {
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return nil }
        return text
    }

    /// Reads an envelope out of a decoded body; `nil` (no body) gives an empty envelope.
    public init(body: JSONValue?) {
        let code = body?["error_code"]?.stringValue.map(ErrorCode.init(rawValue:))
        let entries = body?["errors"]?.arrayValue ?? []
        self.init(
            errorCode: code,
            errors: entries.compactMap { entry in
                guard let message = entry["message"]?.stringValue else { return nil }
                return FieldError(field: entry["field"]?.stringValue, message: message)
            }
        )
        // The contract's message is `errors[0].message`, even when a later entry has one.
        firstMessage = Self.nonBlank(entries.first?["message"]?.stringValue)
    }

    /// The first error message, the one a UI shows.
    public private(set) var firstMessage: String?
}

/// A backend `error_code`; unknown codes are kept as they came.
public struct ErrorCode: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The code as the server spelled it.
    public let rawValue: String

    /// Wraps a code.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The code as the server spelled it, such as `TOKEN_EXPIRED`.
    public var description: String { rawValue }

    /// The access token is not valid and cannot be refreshed.
    public static let tokenInvalid = ErrorCode(rawValue: "TOKEN_INVALID")
    /// The access token expired; a refresh may help.
    public static let tokenExpired = ErrorCode(rawValue: "TOKEN_EXPIRED")
    /// The account is deactivated.
    public static let userInactive = ErrorCode(rawValue: "USER_INACTIVE")
    /// The account is deleted.
    public static let userDeleted = ErrorCode(rawValue: "USER_DELETED")
    /// The account is blocked.
    public static let userBlocked = ErrorCode(rawValue: "USER_BLOCKED")
    /// Too many requests.
    public static let rateLimited = ErrorCode(rawValue: "RATE_LIMITED")
    /// The input did not validate.
    public static let validationFailed = ErrorCode(rawValue: "VALIDATION_FAILED")
    /// The resource does not exist.
    public static let notFound = ErrorCode(rawValue: "NOT_FOUND")
}
