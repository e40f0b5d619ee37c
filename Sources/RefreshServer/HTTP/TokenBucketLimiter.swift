import Foundation
import Synchronization

/// Per-client token buckets. Buckets are spread over shards, each behind its own mutex, so that
/// concurrent requests of different clients rarely wait on one another; idle buckets are dropped
/// when a shard grows, so a flood of distinct addresses cannot grow memory without bound.
final class TokenBucketLimiter: Sendable {
    /// What the limiter decided for one request.
    enum Decision: Equatable {
        case allowed
        /// Denied; a token is available after this many seconds (rounded up, at least 1).
        case denied(retryAfter: Int)
    }

    private struct Bucket {
        var tokens: Double
        var updated: UInt64
    }

    private let rate: Double
    private let burst: Double
    private final class Shard: Sendable {
        let buckets = Mutex<[ClientKey: Bucket]>([:])
    }

    private let shards: [Shard]
    private let maxBucketsPerShard: Int
    private let clock: @Sendable () -> UInt64

    init(
        requestsPerSecond: Double, burst: Double, shardCount: Int = 16, maxBucketsPerShard: Int = 4096,
        clock: @escaping @Sendable () -> UInt64
    ) {
        precondition(requestsPerSecond > 0 && burst >= 1)
        rate = requestsPerSecond
        self.burst = burst
        shards = (0..<shardCount).map { _ in Shard() }
        self.maxBucketsPerShard = maxBucketsPerShard
        self.clock = clock
    }

    /// Takes one token from `client`'s bucket if there is one.
    func acquire(client: ClientKey) -> Decision {
        let now = clock()
        let shard = shards[Int(UInt(bitPattern: client.hashValue) % UInt(shards.count))]
        return shard.buckets.withLock { buckets in
            var bucket = buckets[client] ?? Bucket(tokens: burst, updated: now)
            let elapsed = Double(now &- bucket.updated) / 1e9
            bucket.tokens = min(burst, bucket.tokens + elapsed * rate)
            bucket.updated = now
            let decision: Decision
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                decision = .allowed
            } else {
                decision = .denied(retryAfter: max(1, Int(((1 - bucket.tokens) / rate).rounded(.up))))
            }
            if buckets.count >= maxBucketsPerShard, buckets[client] == nil { evictIdle(&buckets, now: now) }
            buckets[client] = bucket
            return decision
        }
    }

    /// Drops buckets that have refilled completely: forgetting them changes no future decision.
    /// If every bucket is still draining (an address flood), the oldest half goes.
    private func evictIdle(_ buckets: inout [ClientKey: Bucket], now: UInt64) {
        let fullAfter = UInt64(burst / rate * 1e9)
        buckets = buckets.filter { now &- $0.value.updated < fullAfter }
        if buckets.count >= maxBucketsPerShard {
            let sorted = buckets.sorted { $0.value.updated > $1.value.updated }
            buckets = Dictionary(uniqueKeysWithValues: sorted.prefix(maxBucketsPerShard / 2).map { ($0.key, $0.value) })
        }
    }
}
