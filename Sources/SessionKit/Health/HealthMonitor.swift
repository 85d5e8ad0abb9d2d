/// Watches the backend's health: one-off checks, and a polling loop on the injected clock
/// that stops while the app is in the background.
public actor HealthMonitor {
    private let client: APIClient
    private let connectivity: any ConnectivitySource
    private let clock: any Clock<Duration>
    private let interval: Duration
    private var pollTask: Task<Void, Never>?
    /// Checks started so far; a check's result counts only if no newer one has started.
    private var checksStarted = 0

    /// The latest known status.
    public private(set) var status: HealthStatus = .unknown

    init(
        client: APIClient,
        connectivity: any ConnectivitySource,
        clock: any Clock<Duration>,
        interval: Duration
    ) {
        self.client = client
        self.connectivity = connectivity
        self.clock = clock
        self.interval = interval
    }

    /// Whether the polling loop is running.
    public var isPolling: Bool { pollTask != nil }

    /// Checks now: offline skips the call; any 2xx from `/health` is healthy, anything else
    /// (503, another status, no answer) is down.
    @discardableResult
    public func check() async -> HealthStatus {
        checksStarted += 1
        let ticket = checksStarted
        let next: HealthStatus
        if await connectivity.isOnline() {
            do {
                _ = try await client.send(.health)
                next = .healthy
            } catch .transport(.cancelled) {
                // Cancelled (polling stopped), not an answer: the server's health is unknown.
                return status
            } catch {
                next = .serverDown
            }
        } else {
            next = .offline
        }
        // Overlapping checks (polling and a foreground burst) may finish out of order: only
        // the newest one speaks for now.
        guard ticket == checksStarted else { return status }
        status = next
        return next
    }

    /// Waits one polling interval on the clock, then checks.
    /// - Throws: `CancellationError` when cancelled while waiting.
    public func checkAfterInterval() async throws -> HealthStatus {
        try await clock.sleep(for: interval)
        return await check()
    }

    /// Starts checking every polling interval; does nothing if already polling.
    public func startPolling() {
        guard pollTask == nil else { return }
        let clock = clock
        let interval = interval
        pollTask = Task { [weak self] in
            while !Task.isCancelled {
                do {
                    try await clock.sleep(for: interval)
                } catch {
                    return  // cancelled while waiting
                }
                guard let self else { return }
                await self.check()
            }
        }
    }

    /// Stops the polling loop.
    public func stopPolling() {
        pollTask?.cancel()
        pollTask = nil
    }

    /// The app went to the background: polling would only waste battery.
    public func enterBackground() {
        stopPolling()
    }

    /// The app came back: check at once (the status may be long stale), then poll again.
    public func enterForeground() async {
        await check()
        startPolling()
    }
}
