import Foundation

/// Checks `GET /health` at startup and, while the backend is down, polls it with a
/// `DispatchSourceTimer` until it answers.
final class HealthMonitor: @unchecked Sendable {
    private let client: APIClient
    private let interval: DispatchTimeInterval
    // `timer` and `checking` are only touched on this queue.
    private let queue = DispatchQueue(label: "DispatchApp.HealthMonitor")
    private var timer: (any DispatchSourceTimer)?
    private var checking = false

    init(client: APIClient, interval: DispatchTimeInterval) {
        self.client = client
        self.interval = interval
    }

    /// Checks once; while unhealthy, polls every interval. `report` gets every check's answer
    /// and `healthy` runs once the backend answered, both on the main queue.
    func waitUntilHealthy(report: @escaping @Sendable (Bool) -> Void, then healthy: @escaping @Sendable () -> Void) {
        client.checkHealth { ok in
            report(ok)
            if ok { return healthy() }
            self.startPolling(report: report, then: healthy)
        }
    }

    private func startPolling(report: @escaping @Sendable (Bool) -> Void, then healthy: @escaping @Sendable () -> Void) {
        queue.async {
            self.timer?.cancel()
            let timer = DispatchSource.makeTimerSource(queue: self.queue)
            timer.schedule(deadline: .now() + self.interval, repeating: self.interval)
            timer.setEventHandler { [weak self] in self?.tick(report: report, then: healthy) }
            self.timer = timer
            timer.resume()
        }
    }

    private func tick(report: @escaping @Sendable (Bool) -> Void, then healthy: @escaping @Sendable () -> Void) {
        // A check slower than the interval: skip this tick rather than pile checks up.
        guard !checking else { return }
        checking = true
        client.checkHealth { ok in
            report(ok)
            self.queue.async {
                self.checking = false
                if ok {
                    self.timer?.cancel()
                    self.timer = nil
                }
            }
            if ok { healthy() }
        }
    }
}
