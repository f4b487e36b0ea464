// Holds the simulation kernel's thread in a job, as a long datapath computation does (the hle twin
// of a large model: seconds), until release() or destruction: for tests of what the host side
// answers meanwhile (cancels and unlinks, sim/urb_arbiter.h).
#pragma once

#include <future>
#include <memory>

#include "sim/simulation_kernel.h"

namespace coralsim::testing {

class SimulationThreadHold {
 public:
  // Returns once the kernel thread runs the holding job.
  SimulationThreadHold() {
    auto entered = std::make_shared<std::promise<void>>();  // std::function wants a copyable job
    std::future<void> running = entered->get_future();
    std::shared_future<void> released = release_.get_future().share();
    sim::SimulationKernel::instance().post([entered, released] {
      entered->set_value();
      released.wait();
    });
    running.wait();
  }
  ~SimulationThreadHold() { release(); }
  SimulationThreadHold(const SimulationThreadHold&) = delete;
  SimulationThreadHold& operator=(const SimulationThreadHold&) = delete;

  void release() {
    if (released_) return;
    released_ = true;
    release_.set_value();
  }

 private:
  std::promise<void> release_;
  bool released_ = false;
};

}  // namespace coralsim::testing
