import ScenarioKit

extension SessionKitDriver {
    /// How traces of a SessionKit app import: the client refreshes tokens and checks health by
    /// itself, `bootstrap` opens with the health check and `GET /users/me`, and any other call
    /// is the `request` action (with `"auth": false` when the trace sent it without credentials).
    /// A bearer token the trace did not obtain comes from a stored session.
    public var traceImport: TraceImportSpec {
        TraceImportSpec(
            requestAction: "request", requestWithoutCredentials: "auth",
            appRequests: [.init("POST", "/auth/refresh"), .init("GET", "/health"), .init("GET", "/users/me/blocked")],
            actionRules: [
                .init(.init("POST", "/auth/login"), action: "login", arguments: ["email": "email", "password": "password"]),
                .init(
                    .init("POST", "/auth/register"), action: "register",
                    arguments: ["name": "name", "email": "email", "password": "password"]),
                .init(.init("POST", "/auth/logout"), action: "logout"),
                .init(.init("POST", "/auth/password/forgot"), action: "forgotPassword", arguments: ["email": "email"]),
            ],
            startAction: "bootstrap",
            startRequests: [.init("GET", "/health"), .init("GET", "/users/me"), .init("GET", "/users/me/blocked")],
            given: { credentials in
                guard let accessToken = credentials.accessToken else { return [:] }
                var session: JSONObject = ["accessToken": .string(accessToken)]
                if let refreshToken = credentials.refreshToken { session["refreshToken"] = .string(refreshToken) }
                return ["session": .object(session)]
            })
    }
}
