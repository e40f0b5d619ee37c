/// The deadlines of one HTTP connection, decided from what the connection saw: a value with no I/O and no timers of its
/// own. `ConnectionDeadlineHandler` feeds it the request parts arriving, the responses leaving, the server's quiesce
/// and the timers it armed firing, and carries out the actions it returns; so every rule below is tested event by
/// event, and the handler on NIO's `EmbeddedChannel`, with no socket and no sleep.
///
/// One deadline runs at a time: for the first head (from accepting the connection), for each body (from its head),
/// and for an idle keep-alive connection (from the end of a response to the next head). None runs while the server
/// computes a response: that time is the server's. An upload's rate is checked every window beside its body's
/// deadline; a shutdown deadline starts at quiesce.
struct ConnectionStateMachine: Sendable {
    /// What a connection was waiting for when its deadline passed; the label of the metric.
    enum Phase: String, Sendable, CaseIterable {
        /// `rate`: an upload arrived slower than its floor.
        case head, body, rate, idle, shutdown
    }

    enum Event: Sendable, Equatable {
        /// The handler was added; `active` when the channel already is.
        case added(active: Bool)
        case becameActive
        /// A request head; `isUpload` when it is an import carrying a key that may import.
        case head(isUpload: Bool)
        case bodyChunk(bytes: Int)
        case requestEnded
        /// A response head is about to be written; `final` unless it is an interim (1xx) one.
        case responseHead(final: Bool)
        case responseEnded
        case quiesce
        case deadlinePassed(Phase)
        case rateCheckDue
        case shutdownDeadlinePassed
        /// The roster chose this connection to make room for a new one.
        case evictionAsked
    }

    enum Action: Sendable, Equatable {
        /// Run the one deadline (replacing any), or stop it.
        case arm(Phase, after: Duration)
        case disarm
        /// Check the upload's rate after `window` (replacing any check), or stop checking.
        case checkRate(after: Duration)
        case stopRateCheck
        case armShutdown(after: Duration)
        /// The connection's first head arrived (`PeerConnections` counts heads still awaited).
        case firstHeadArrived
        /// On the roster as idle (closable to make room), or busy again.
        case markIdle
        case markBusy
        case countTimeout(Phase)
        case countEviction
        /// Answer 408 and close: no route owns the connection yet.
        case answerTimeout
        /// Fail the route's read of its body with `ClientTimeout(phase:)`; its error path answers 408.
        case failBody(Phase)
        /// Write the response head with `Connection: close`.
        case sayClose
        /// Write the response's end and flush: then close, or wait for the next request.
        case flushAndClose
        case writeEnd
        case close
    }

    let limits: ConnectionLimits
    /// Whether the head deadline (or any) is running.
    private var armed: Phase?
    /// Requests whose head has arrived and whose response has not ended (more than one when pipelined).
    private var unanswered = 0
    private var readingBody = false
    private(set) var awaitingFirstHead = true
    private var isIdle = false
    /// Every later response says `Connection: close`; after the last one the connection closes.
    private var closing = false
    /// The response being written began before its request's body ended: the connection closes after it.
    private var answeredEarly = false
    /// Bytes of an upload's body since its rate was last checked.
    private var windowBytes = 0
    private var checkingRate = false
    private var quiesced = false

    init(limits: ConnectionLimits) { self.limits = limits }

    mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .added(let active): return active ? arm(.head, after: limits.headTimeout) : []
        case .becameActive: return armed == nil && awaitingFirstHead ? arm(.head, after: limits.headTimeout) : []
        case .head(let isUpload): return headArrived(isUpload: isUpload)
        case .bodyChunk(let bytes):
            windowBytes += bytes
            return []
        case .requestEnded:
            readingBody = false
            return disarm() + stopRateCheck()
        case .responseHead(let final): return responseHead(final: final)
        case .responseEnded: return responseEnded()
        case .quiesce:
            guard !quiesced else { return [] }
            quiesced = true
            closing = true
            return [.armShutdown(after: limits.shutdownTimeout)]
        case .deadlinePassed(let phase):
            guard armed == phase else { return [] }
            armed = nil
            return expire(phase)
        case .rateCheckDue: return rateCheckDue()
        case .shutdownDeadlinePassed: return [.countTimeout(.shutdown), .close]
        case .evictionAsked:
            guard isIdle else { return [] }
            isIdle = false
            return [.countEviction, .close]
        }
    }

    private mutating func headArrived(isUpload: Bool) -> [Action] {
        var actions: [Action] = []
        if awaitingFirstHead {
            awaitingFirstHead = false
            actions.append(.firstHeadArrived)
        }
        unanswered += 1
        readingBody = true
        if isIdle {
            isIdle = false
            actions.append(.markBusy)
        }
        actions += arm(.body, after: limits.bodyTimeout(isUpload: isUpload))
        if isUpload, limits.uploadMinBytesPerSecond > 0 { actions += checkRate() }
        return actions
    }

    private mutating func responseHead(final: Bool) -> [Action] {
        // An interim response (100 Continue) asks for the body; it is not an answer.
        guard closing || (readingBody && final) else { return [] }
        answeredEarly = readingBody
        return [.sayClose]
    }

    private mutating func responseEnded() -> [Action] {
        if answeredEarly { return disarm() + [.flushAndClose] }
        unanswered = max(0, unanswered - 1)
        guard unanswered == 0, !readingBody else { return [.writeEnd] }
        if closing { return [.flushAndClose] }
        var actions = [Action.writeEnd] + arm(.idle, after: limits.idleTimeout)
        if !isIdle {
            isIdle = true
            actions.append(.markIdle)
        }
        return actions
    }

    private mutating func expire(_ phase: Phase) -> [Action] {
        switch phase {
        case .head:
            return [.countTimeout(.head), .answerTimeout]
        case .body, .rate:
            // The route is reading (or about to read) the body: its own error path answers 408 and frees what it holds
            // (an upload's staged file). The close after the answer is ours; a route that never reads its body must
            // not keep the connection either.
            closing = true
            readingBody = false
            return [.countTimeout(phase)] + stopRateCheck() + [.failBody(phase)] + arm(.shutdown, after: .seconds(2))
        case .idle, .shutdown:
            return [.countTimeout(phase), .close]
        }
    }

    /// Every `uploadRateWindow` while an upload's body arrives: fewer bytes than the floor in the window cut it.
    private mutating func rateCheckDue() -> [Action] {
        guard checkingRate else { return [] }
        checkingRate = false
        guard readingBody else { return [] }
        let floor = Int(Double(limits.uploadMinBytesPerSecond) * limits.uploadRateWindow.inSeconds)
        guard windowBytes < floor else { return checkRate() }
        return disarm() + expire(.rate)
    }

    private mutating func arm(_ phase: Phase, after timeout: Duration) -> [Action] {
        armed = phase
        return [.arm(phase, after: timeout)]
    }

    private mutating func disarm() -> [Action] {
        guard armed != nil else { return [] }
        armed = nil
        return [.disarm]
    }

    private mutating func checkRate() -> [Action] {
        windowBytes = 0
        checkingRate = true
        return [.checkRate(after: limits.uploadRateWindow)]
    }

    private mutating func stopRateCheck() -> [Action] {
        guard checkingRate else { return [] }
        checkingRate = false
        return [.stopRateCheck]
    }
}
