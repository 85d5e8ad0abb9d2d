import ScenarioKit

extension SampleAppDriver {
    /// Every action the sample app offers to scenarios.
    static let catalog: [ActionSpec] = [
        ActionSpec("bootstrap", "App start: GET /users/me with the stored token and the startup decision"),
        ActionSpec(
            "login", "Email sign-in (POST /auth/login)",
            arguments: [
                ArgumentSpec("email", .string, required: true, "the email"),
                ArgumentSpec("password", .string, required: true, "the password"),
            ]),
        ActionSpec("logout", "Regular sign-out: POST /auth/logout, no alert"),
        ActionSpec(
            "request", "Any authenticated call: refresh on expiry, backoff on 429/503; value {status, attempts, elapsed, data}",
            arguments: [
                ArgumentSpec("path", .string, required: true, "path, such as /feed"),
                ArgumentSpec("method", .string, "HTTP method; default GET"),
            ]),
    ]

    /// What `given` may hold.
    static let givenCatalog: [GivenSpec] = [
        GivenSpec(
            "session", .object, "stored tokens: {accessToken, refreshToken}",
            fields: [
                ArgumentSpec("accessToken", .string, required: true, "the stored access token"),
                ArgumentSpec("refreshToken", .string, "the stored refresh token"),
            ])
    ]
}
