import Dispatch
import Foundation
import ScenarioTestSupport
import Testing

@testable import ScenarioEngine

/// Main-queue work runs on the scenario's thread, and there `Thread.isMainThread` answers as on
/// iOS (Linux): yes in a main-queue block, a main-actor job and a `sync` onto the main queue, no
/// elsewhere. So `OperationQueue.current` is the main queue there, and a `NotificationCenter` post
/// from the main queue to an observer on the main queue runs the observer at once, as on iOS.
@Suite struct MainThreadCaptureTests {
    struct MainThreadDriver: ScenarioDriver {
        var name: String { "MainThread" }
        var actions: [ActionSpec] {
            [
                ActionSpec("where", "Thread.isMainThread in each kind of work"),
                ActionSpec("postOnMain", "a main-queue block posts a notification observed on the main queue"),
            ]
        }
        var givenKeys: [GivenSpec] { [] }
        func makeSession(_ context: DriverContext) async throws -> any DriverSession { MainThreadSession() }
    }

    struct MainThreadSession: ActionOnlySession {
        func perform(_ action: String, arguments: JSONValue) async -> ActionResult {
            let noted = Noted()
            switch action {
            case "where":
                noted.note("driverTask", .bool(Thread.isMainThread))
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    DispatchQueue.main.async {
                        noted.note("mainQueueBlock", .bool(Thread.isMainThread))
                        noted.note("operationQueueIsMain", .bool(OperationQueue.current === OperationQueue.main))
                    }
                    DispatchQueue(label: "main-thread.background").async {
                        noted.note("backgroundBlock", .bool(Thread.isMainThread))
                        DispatchQueue.main.sync { noted.note("syncOntoMain", .bool(Thread.isMainThread)) }
                        DispatchQueue.main.async { done.resume() }
                    }
                }
                await MainActor.run { noted.note("mainActorJob", .bool(Thread.isMainThread)) }
            case "postOnMain":
                let name = Notification.Name("main-thread.\(UUID())")
                let center = NotificationCenter()
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    DispatchQueue.main.async {
                        let returned = Noted()
                        let observer = center.addObserver(forName: name, object: nil, queue: .main) { _ in
                            noted.note("observedBeforePostReturned", .bool(returned.value == [:]))
                        }
                        center.post(name: name, object: nil)
                        returned.note("postReturned", .bool(true))
                        noted.note("postReturned", .bool(true))
                        center.removeObserver(observer)
                        done.resume()
                    }
                }
            default:
                return .error(["code": "unknownAction"])
            }
            return .value(noted.value)
        }
    }

    #if os(Linux)
        @Test func mainQueueWorkIsOnTheMainThread() async {
            #expect(DispatchCapture.hasMainThreadAnswer)
            let result = await Build.runOne(
                "where",
                expecting: [
                    "driverTask": false, "mainQueueBlock": true, "operationQueueIsMain": true, "backgroundBlock": false,
                    "syncOntoMain": true, "mainActorJob": true,
                ], with: MainThreadDriver())
            #expect(result.status == .passed, "\(result.explanation)")
        }

        @Test func aPostFromTheMainQueueToAMainQueueObserverRunsItAtOnce() async {
            let result = await Build.runOne(
                "postOnMain", expecting: ["observedBeforePostReturned": true, "postReturned": true], with: MainThreadDriver())
            #expect(result.status == .passed, "\(result.explanation)")
        }
    #endif
}
