import DispatchApp
import ScenarioKit

extension DispatchAppDriver {
    /// How `scenario import` maps a trace onto the Dispatch app: the refresh and health polls are
    /// the app's own, sign-in and sign-out their actions, and a 429 or 503 it waits out itself
    /// (up to a minute, three attempts) is retried inside the same `request`.
    public var traceImport: TraceImportSpec {
        TraceImportSpec(
            requestAction: "request", appRequests: [.init("POST", "/auth/refresh"), .init("GET", "/health")],
            actionRules: [
                .init(.init("POST", "/auth/login"), action: "login", arguments: ["email": "email", "password": "password"]),
                .init(.init("POST", "/auth/logout"), action: "logout"),
            ],
            startAction: "bootstrap", startRequests: [.init("GET", "/health"), .init("GET", "/users/me")],
            stackRetry: .init(statuses: [429, 503], longestWait: .seconds(APIClient.longestWait)),
            given: { credentials in
                guard let access = credentials.accessToken else { return [:] }
                var session: JSONObject = ["accessToken": .string(access)]
                if let refresh = credentials.refreshToken { session["refreshToken"] = .string(refresh) }
                return ["session": .object(session)]
            })
    }
}
