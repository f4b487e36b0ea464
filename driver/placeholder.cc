// Placeholder translation unit; replaced by the model loader.
namespace coralsim::driver {}
