import ScenarioKit

extension TaskBoardDriver {
    /// How `scenario import` maps a capture of the board: the refresh is the client's own, sign-in
    /// and sign-out are their actions, a capture opening with `GET /me` starts with `launch`, any
    /// other call is a `request`, and the stored session a capture starts with goes to
    /// `given.session`.
    public var traceImport: TraceImportSpec {
        TraceImportSpec(
            requestAction: "request", appRequests: [.init("POST", "/auth/refresh")],
            actionRules: [
                .init(.init("POST", "/auth/login"), action: "signIn", arguments: ["email": "email", "password": "password"]),
                .init(.init("POST", "/auth/logout"), action: "signOut"),
            ],
            startAction: "launch", startRequests: [.init("GET", "/me")],
            given: { credentials in
                guard let access = credentials.accessToken, let refresh = credentials.refreshToken else { return [:] }
                return ["session": ["accessToken": .string(access), "refreshToken": .string(refresh)]]
            })
    }
}
