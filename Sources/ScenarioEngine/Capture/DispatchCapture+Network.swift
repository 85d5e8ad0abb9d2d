import CRuntimeHooks
import Foundation

/// The way out: what keeps a scenario's requests from the network when they do not go through a
/// routed URLSession (a libcurl transfer of a session of the stack's own, a connection the
/// program opens itself). Each is held back or refused, and the scenario fails naming it.
extension DispatchCapture {
    /// Whether a libcurl transfer about to start is held back before it opens a socket (the task
    /// waits for its timeout; the run fails on the escape). Routed requests never reach libcurl:
    /// this one came from a session that does not route (built from a configuration of the
    /// stack's own, which lists URLSession's HTTP loading first). It is held back when it starts
    /// on the runner thread, or, while a scenario runs, from any thread: in a process that runs
    /// only scenarios, wherever it goes, and beside other tests (`swift test`) unless it goes to
    /// loopback, where those tests' own servers listen. The running scenario fails with it.
    static func holdsBack(_ easy: UnsafeMutableRawPointer?) -> Bool {
        let raw = easy.flatMap(ssdc_transfer_url).map { String(cString: $0) }
        let running = ScenarioHost.shared.wholeProcessScenario ?? (raw.map(isLoopback) == true ? nil : ScenarioHost.shared.runningScenario)
        guard let scheduler = Capture.currentScheduler ?? running else { return false }
        let method = easy.flatMap(ssdc_transfer_method).map { String(cString: $0) } ?? "a request to"
        let url = raw.map(Self.withoutQuery) ?? "the network"
        scheduler.noteEscape(
            "\(method) \(url) was held back before it reached the network: it came from a URLSession that does not route to the scenario (build it from the driver context's urlSessionConfiguration())"
        )
        return true
    }

    /// Whether a connection the program's own code opens away from this machine (`destination`:
    /// `host:port`, or a host name it looks up) is refused: while a scenario runs, as for a
    /// libcurl transfer above, since it bypasses URLSession and so the scripted backend.
    static func refusesConnection(to destination: String) -> Bool {
        guard let scheduler = Capture.currentScheduler ?? ScenarioHost.shared.runningScenario else { return false }
        scheduler.noteEscape(
            "a connection to \(destination) was refused before it reached the network: the stack's code opened it without URLSession (SwiftNIO, AsyncHTTPClient or a socket of its own), which no scenario can answer; send through the driver context's transport or a URLSession built from its urlSessionConfiguration()"
        )
        return true
    }

    /// Whether a URL names this machine (`localhost`, 127.0.0.0/8, `::1`).
    static func isLoopback(_ url: String) -> Bool {
        guard let host = URLComponents(string: url)?.host?.lowercased() else { return false }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return bare == "localhost" || bare.hasSuffix(".localhost") || bare == "::1" || bare.hasPrefix("127.")
    }

    /// A URL without its query, fragment and user info, which may carry secrets.
    private static func withoutQuery(_ url: String) -> String {
        guard var components = URLComponents(string: url) else { return "a URL" }
        components.query = nil
        components.fragment = nil
        components.user = nil
        components.password = nil
        return components.string ?? "a URL"
    }
}
