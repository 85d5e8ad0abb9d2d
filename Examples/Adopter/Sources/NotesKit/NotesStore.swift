import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A notes screen written the way app code is: state on the main actor, its own URLSession,
/// a retry after `Retry-After` with `Task.sleep`, a sign-out on 403 that happens once, and
/// logging with `print`.
@MainActor public final class NotesStore {
    /// The notes shown.
    public private(set) var notes: [String] = []
    /// Whether the user is still signed in.
    public private(set) var signedIn = true
    /// Alerts shown, in order.
    public private(set) var alerts: [String] = []
    private let session: URLSession
    private let baseURL: URL
    private var token: String

    /// Creates the screen with its own session built from `configuration`.
    public init(configuration: URLSessionConfiguration, baseURL: URL, token: String) {
        session = URLSession(configuration: configuration)
        self.baseURL = baseURL
        self.token = token
    }

    /// Loads the notes; waits out one 503 with its `Retry-After`.
    public func refresh() async {
        for attempt in 0..<2 {
            var request = URLRequest(url: baseURL.appendingPathComponent("notes"))
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            guard let (data, response) = try? await session.data(for: request), let http = response as? HTTPURLResponse else {
                return
            }
            // Apps log to standard output; a scenario run must not mind.
            print("notes: GET /notes answered \(http.statusCode)")
            switch http.statusCode {
            case 200:
                notes = (try? JSONDecoder().decode([String].self, from: data)) ?? []
                return
            case 403:
                signOutBlocked()
                return
            case 503 where attempt == 0:
                let seconds = Int(http.value(forHTTPHeaderField: "Retry-After") ?? "") ?? 1
                try? await Task.sleep(for: .seconds(seconds))
            default:
                return
            }
        }
    }

    private func signOutBlocked() {
        MainActor.assertIsolated()
        guard signedIn else { return }
        signedIn = false
        notes = []
        alerts.append("Account Blocked")
    }
}
