#include "usbip/server.h"

#include <cstdio>
#include <stdexcept>
#include <thread>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>

#include "usbip/server_connection.h"
#include "usbip/server_context.h"

namespace coralsim::usbip {

using boost::asio::ip::tcp;

void ServerContext::log(std::string_view line) const {
  if (options.log) {
    options.log(line);
  } else {
    std::fprintf(stderr, "%.*s\n", static_cast<int>(line.size()), line.data());
  }
}

struct Server::Impl {
  explicit Impl(ServerOptions options) : context(std::move(options)), acceptor(context.io) {}

  void accept() {
    acceptor.async_accept([this](const boost::system::error_code& error, tcp::socket socket) {
      if (error) {
        if (error == boost::asio::error::operation_aborted || !acceptor.is_open()) return;
        context.log("usbip: accept failed: " + error.message());
      } else if (const std::string refusal = refusalOf(socket); !refusal.empty()) {
        ++context.stats.clientsRefused;
        context.log("usbip: refused a connection from " + refusal);
        boost::system::error_code ignored;
        socket.close(ignored);
      } else if (context.connections.size() >= context.options.maxConnections) {
        ++context.stats.protocolErrors;
        context.log("usbip: refused a connection: " + std::to_string(context.options.maxConnections) +
                    " connections are open already");
        boost::system::error_code ignored;
        socket.close(ignored);
      } else {
        ++context.stats.connectionsAccepted;
        boost::system::error_code ignored;
        socket.set_option(tcp::no_delay(true), ignored);  // an open is ~52 sequential control transfers
        auto connection = std::make_shared<ServerConnection>(context, std::move(socket));
        context.connections.insert(connection);
        connection->start();
      }
      accept();
    });
  }

  // "" when the peer may connect, else its address and why not (for the log line).
  std::string refusalOf(const tcp::socket& socket) const {
    boost::system::error_code ec;
    const tcp::endpoint peer = socket.remote_endpoint(ec);
    if (ec) return "(unknown peer): " + ec.message();
    boost::asio::ip::address address = peer.address();
    if (address.is_v6() && address.to_v6().is_v4_mapped()) {
      address = boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, address.to_v6());
    }
    if (allowLoopbackOnly) {
      return address.is_loopback() ? "" : address.to_string() + ": only loopback clients may connect (see --allow)";
    }
    if (allowed.empty()) return "";
    for (const auto& a : allowed) {
      if (a == address) return "";
    }
    return address.to_string() + ": not in the allow-list";
  }

  ServerContext context;
  std::vector<boost::asio::ip::address> allowed;  // empty: anyone (unless allowLoopbackOnly)
  bool allowLoopbackOnly = false;
  tcp::acceptor acceptor;
  std::thread thread;
  uint16_t boundPort = 0;
  bool stopped = false;
};

Server::Server(std::vector<ExportedDevice*> devices, ServerOptions options)
    : impl_(std::make_unique<Impl>(std::move(options))) {
  uint32_t devnum = 1;
  for (ExportedDevice* device : devices) {
    if (device == nullptr) throw std::invalid_argument("usbip: Server given a null device");
    impl_->context.slots.push_back(ExportSlot{device, BusPosition{1, devnum++}, nullptr});
  }
}

Server::~Server() { stop(); }

void Server::start() {
  if (impl_->thread.joinable() || impl_->stopped) throw std::logic_error("usbip: Server::start() called twice");
  const ServerOptions& o = impl_->context.options;
  const std::string where = o.listenAddress + ":" + std::to_string(o.port);
  for (const std::string& text : o.allowedClients) {
    boost::system::error_code ec;
    boost::asio::ip::address address = boost::asio::ip::make_address(text, ec);
    if (ec) throw std::invalid_argument("usbip: allowed client '" + text + "' is not an IP address");
    if (address.is_v6() && address.to_v6().is_v4_mapped()) {
      address = boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, address.to_v6());
    }
    impl_->allowed.push_back(address);
  }
  if (o.allowedClients.empty()) {
    boost::system::error_code ec;
    const auto listen = boost::asio::ip::make_address(o.listenAddress, ec);
    impl_->allowLoopbackOnly = !ec && listen.is_loopback();
  }
  try {
    const tcp::endpoint endpoint(boost::asio::ip::make_address(o.listenAddress), o.port);
    impl_->acceptor.open(endpoint.protocol());
    impl_->acceptor.set_option(tcp::acceptor::reuse_address(true));
    impl_->acceptor.bind(endpoint);
    impl_->acceptor.listen();
    impl_->boundPort = impl_->acceptor.local_endpoint().port();
  } catch (const boost::system::system_error& e) {
    throw std::runtime_error("usbip: cannot listen on " + where + ": " + e.code().message());
  }
  impl_->accept();
  impl_->thread = std::thread([this] { impl_->context.io.run(); });
}

void Server::stop() {
  if (impl_->stopped) return;
  impl_->stopped = true;
  if (impl_->thread.joinable()) {
    boost::asio::post(impl_->context.io, [impl = impl_.get()] {
      boost::system::error_code ignored;
      impl->acceptor.close(ignored);
      const auto open = impl->context.connections;  // close() edits the set
      for (const auto& connection : open) connection->close("server stopping");
    });
    impl_->thread.join();
  }
  // From here on, URBs completing on device threads are dropped instead of posted.
  impl_->context.relay->close();
}

uint16_t Server::port() const { return impl_->boundPort; }

std::string Server::busId(size_t deviceIndex) const { return impl_->context.slots.at(deviceIndex).position.busId(); }

const ServerStats& Server::stats() const { return impl_->context.stats; }

}  // namespace coralsim::usbip
