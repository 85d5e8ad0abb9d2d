import Foundation
import HTTPCore

/// The backend's endpoints (see the API contract), so paths are spelled in one place.
extension APIEndpoint {
    /// `GET /health`
    public static let health = APIEndpoint(method: .get, path: "/health", authenticated: false)

    /// `POST /auth/login`
    public static func login(email: String, password: String) -> APIEndpoint {
        APIEndpoint(
            method: .post, path: "/auth/login",
            body: ["email": .string(email), "password": .string(password)], authenticated: false)
    }

    /// `POST /auth/register`
    public static func register(name: String, email: String, password: String) -> APIEndpoint {
        APIEndpoint(
            method: .post, path: "/auth/register",
            body: ["name": .string(name), "email": .string(email), "password": .string(password)],
            authenticated: false)
    }

    /// `POST /auth/refresh`
    public static func refresh(refreshToken: String) -> APIEndpoint {
        APIEndpoint(
            method: .post, path: "/auth/refresh", body: ["refresh_token": .string(refreshToken)],
            authenticated: false)
    }

    /// `POST /auth/logout`, best effort.
    public static let logout = APIEndpoint(
        method: .post, path: "/auth/logout", sessionHandling: .bestEffort)

    /// `POST /auth/password/forgot`
    public static func forgotPassword(email: String) -> APIEndpoint {
        APIEndpoint(
            method: .post, path: "/auth/password/forgot", body: ["email": .string(email)],
            authenticated: false)
    }

    /// `POST /auth/phone/code`
    public static func sendPhoneCode(phone: String, region: String) -> APIEndpoint {
        APIEndpoint(
            method: .post, path: "/auth/phone/code",
            body: ["phone": .string(phone), "region": .string(region)], authenticated: false)
    }

    /// `POST /auth/phone/verify`
    public static func verifyPhoneCode(verificationID: String, code: String) -> APIEndpoint {
        APIEndpoint(
            method: .post, path: "/auth/phone/verify",
            body: ["verification_id": .string(verificationID), "code": .string(code)],
            authenticated: false)
    }

    /// `GET /users/me`
    public static let currentUser = APIEndpoint(method: .get, path: "/users/me")

    /// `PATCH /users/me`
    public static func updateCurrentUser(_ fields: [String: JSONValue]) -> APIEndpoint {
        APIEndpoint(method: .patch, path: "/users/me", body: .object(fields))
    }

    /// `DELETE /users/me`
    public static let deleteCurrentUser = APIEndpoint(method: .delete, path: "/users/me")

    /// `GET /users/related`
    public static let relatedUsers = APIEndpoint(method: .get, path: "/users/related")

    /// `GET /users/search?q=`
    public static func searchUsers(_ query: String) -> APIEndpoint {
        APIEndpoint(method: .get, path: "/users/search", query: [.init(name: "q", value: query)])
    }

    /// `GET /users/me/blocked`
    public static let blockedUsers = APIEndpoint(method: .get, path: "/users/me/blocked")

    /// `PUT /users/{id}/block`
    public static func block(userID: String) -> APIEndpoint {
        APIEndpoint(method: .put, path: "/users/\(pathSegment(userID))/block")
    }

    /// `DELETE /users/{id}/block`
    public static func unblock(userID: String) -> APIEndpoint {
        APIEndpoint(method: .delete, path: "/users/\(pathSegment(userID))/block")
    }

    /// `GET /feed`
    public static let feed = APIEndpoint(method: .get, path: "/feed")

    /// An id percent-encoded for one path segment, so `a/b` cannot address another endpoint.
    private static func pathSegment(_ id: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove("/")
        return id.addingPercentEncoding(withAllowedCharacters: allowed) ?? id
    }
}
