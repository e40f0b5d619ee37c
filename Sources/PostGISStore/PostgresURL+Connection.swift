import Geo
import LocationStore
import Logging
import NIOCore
import NIOPosix
import NIOSSL
import PostgresNIO

#if canImport(Glibc)
import Glibc
#endif

extension PostgresURL {
    /// TCP keepalive on every connection. Without it a connection whose host vanished without a word (a failover that
    /// took the machine, a firewall that forgot the flow) is never found dead while it idles, and a `LISTEN` waits on
    /// it for ever. Probes start after `keepAliveIdle` seconds of silence, every `keepAliveInterval`, and
    /// `keepAliveCount` unanswered end the connection: a silent cut is found within about 25 s. `TCP_USER_TIMEOUT`
    /// ends one whose sent data stays unacknowledged as long.
    package static let keepAliveIdle = 10
    package static let keepAliveInterval = 5
    package static let keepAliveCount = 3
    package static let userTimeoutMilliseconds = 25_000

    /// A connection to the URL's database on a TCP channel with the keepalive above. PostgresNIO's own bootstrap sets
    /// no socket options, so the channel is opened here and handed to it, in one chain on the channel's event loop:
    /// the startup message follows the TCP handshake at once, whatever the cooperative pool is doing. (Awaited in two
    /// steps, a channel could wait past PostgreSQL's `authentication_timeout` for its turn on a loaded machine, and
    /// be closed before PostgresNIO saw it: "Already closed".)
    package func connect(id: Int, logger: Logger) async throws -> PostgresConnection {
        let base = try configuration()
        let url = self
        return try await bootstrap().connect(host: host, port: port).flatMap { channel in
            PostgresConnection.connect(on: channel.eventLoop, configuration: url.configuration(base, on: channel), id: id, logger: logger)
        }.get()
    }

    /// A TCP channel to the URL's host with the keepalive above, within `connect_timeout` (tests read its options).
    package func openChannel() async throws -> any Channel {
        try await bootstrap().connect(host: host, port: port).get()
    }

    private func bootstrap() -> ClientBootstrap {
        func tcp(_ name: Int32) -> ChannelOptions.Types.SocketOption {
            ChannelOptions.Types.SocketOption(level: .tcp, name: NIOBSDSocket.Option(rawValue: name))
        }
        return ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.init(connectTimeout))
            .channelOption(ChannelOptions.socketOption(.so_keepalive), value: 1)
            .channelOption(tcp(TCP_KEEPIDLE), value: Self.keepAliveIdle)
            .channelOption(tcp(TCP_KEEPINTVL), value: Self.keepAliveInterval)
            .channelOption(tcp(TCP_KEEPCNT), value: Self.keepAliveCount)
            .channelOption(tcp(TCP_USER_TIMEOUT), value: Self.userTimeoutMilliseconds)
            .channelOption(tcp(TCP_NODELAY), value: 1)
    }

    /// `base` on a channel already connected to the URL's host.
    private func configuration(
        _ base: PostgresConnection.Configuration, on channel: any Channel
    ) -> PostgresConnection.Configuration {
        var configuration = PostgresConnection.Configuration(
            establishedChannel: channel, tls: base.tls, username: user, password: password, database: database)
        configuration.options = base.options
        // PostgresNIO takes the TLS server name (SNI, and the name verify-full checks) from a host it connects to
        // itself; on a given channel it must be told. An IP address is no server name.
        if (try? SocketAddress(ipAddress: host, port: 0)) == nil { configuration.options.tlsServerName = host }
        return configuration
    }

    /// PostgresNIO's configuration for this URL.
    package func configuration() throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS
        switch sslMode {
        case .disable:
            tls = .disable
        case .allow, .prefer, .require:
            var client = TLSConfiguration.makeClientConfiguration()
            client.certificateVerification = .none
            let context = try NIOSSLContext(configuration: client)
            tls = sslMode == .require ? .require(context) : .prefer(context)
        case .verifyCA, .verifyFull:
            var client = TLSConfiguration.makeClientConfiguration()
            client.certificateVerification = sslMode == .verifyFull ? .fullVerification : .noHostnameVerification
            tls = .require(try NIOSSLContext(configuration: client))
        }
        var configuration = PostgresConnection.Configuration(
            host: host, port: port, username: user, password: password,
            database: database, tls: tls)
        configuration.options.connectTimeout = .init(connectTimeout)
        return configuration
    }
}
