// spkrylov._core: the nanobind layer of the Python package. It takes CSR arrays and vectors
// through DLPack (nb::ndarray): NumPy in host memory, or arrays on the current CUDA device
// (CuPy, or PyTorch/JAX through CuPy's DLPack import in the package), used in place; the config as
// keyword settings [(key path, value)], each value made a YAML node (not text) and checked by
// the same reader as the YAML file and --set (frontend/config), and returns
// plain dicts; python/spkrylov/__init__.py builds the public API on it. A system can also be
// given by Python operators instead of CSR arrays (python_operator.hpp: a matrix-free A, a
// user M), which the package's _operators.py wraps. The GIL is released while a
// solve runs; at each of its checks the solve takes the GIL back for a moment to look for a signal
// (Ctrl-C): one stops the solve there (status interrupted) and is raised as the Python exception,
// the solver still usable.
//
// Errors: spk::BadInput -> ValueError, spk::NotSupported -> TypeError,
// spk::OutOfDeviceMemory -> MemoryError, spk::NoDevice -> spkrylov.NoDeviceError (a
// RuntimeError), every other spk::Error -> RuntimeError; the message is the CLI's line.
#include <cuda_runtime.h>
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "core/cuda_check.hpp"
#include "frontend/config/config_loader.hpp"
#include "frontend/config/config_names.hpp"
#include "frontend/config/yaml_reader.hpp"
#include "frontend/convergence_plot.hpp"
#include "frontend/result_fields.hpp"
#include "frontend/run_report.hpp"
#include "frontend/solve_command.hpp"
#include "python/src/python_operator.hpp"
#include "solver/csr_input.hpp"
#include "spkrylov/errors.hpp"
#include "spkrylov/solver.hpp"
#include "spmv/host/matrix_stats.hpp"

namespace nb = nanobind;

namespace spk::python {

namespace {

template <class T>
using HostVector = nb::ndarray<T, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
using AnyHostVector = nb::ndarray<nb::ndim<1>, nb::c_contig, nb::device::cpu>;
// Host or CUDA device memory (DLPack): where it lives is checked by location_of.
template <class T>
using Vector = nb::ndarray<T, nb::ndim<1>, nb::c_contig>;

// Whether `array` is on the GPU (the current CUDA device) rather than in host memory; another
// device kind or another GPU is an error naming `name`.
template <class Array>
bool on_device(const Array& array, const char* name) {
  if (array.device_type() == nb::device::cpu::value) return false;
  if (array.device_type() != nb::device::cuda::value)
    throw NotSupported(std::string(name) +
                       ": arrays in host memory or on a CUDA GPU only (DLPack device type " +
                       std::to_string(array.device_type()) + ")");
  int current = 0;
  SPK_CUDA_CHECK(cudaGetDevice(&current));
  if (array.device_id() != current)
    throw BadInput(std::string(name) + " is on GPU " + std::to_string(array.device_id()) +
                   ", the solver on GPU " + std::to_string(current));
  return true;
}

// One location for arrays used together; device arrays are then made ready: the work that
// produced them, on whatever stream (CuPy's, PyTorch's), is complete before the solver's
// stream reads them.
template <class... Arrays>
bool location_of(const char* names, const Arrays&... arrays) {
  const bool device[] = {on_device(arrays, names)...};
  for (const bool d : device)
    if (d != device[0])
      throw BadInput(std::string(names) +
                     ": some in host memory, some on the GPU; give them all in one place");
  if (device[0]) SPK_CUDA_CHECK(cudaDeviceSynchronize());
  return device[0];
}

// A keyword's value as a YAML node, built from the Python object itself (nothing is parsed as
// YAML text): bool, int and float as the scalar text the reader expects (float by repr, so
// 1e-08 stays 1e-08 and nan stays nan for the reader to refuse), str as a plain scalar, dict
// as a map with str keys, list or tuple as a list. The Python package turns NumPy scalars
// into these first. Nesting is bounded as in a config file (max_yaml_depth).
YAML::Node yaml_node_of(nb::handle value, const std::string& key_path, std::size_t depth = 0) {
  if (depth > max_yaml_depth)
    throw BadInput(key_path + ": nested deeper than " + std::to_string(max_yaml_depth) + " levels");
  if (nb::isinstance<nb::bool_>(value)) return YAML::Node(nb::cast<bool>(value) ? "true" : "false");
  if (nb::isinstance<nb::int_>(value) || nb::isinstance<nb::float_>(value))
    return YAML::Node(std::string(nb::repr(value).c_str()));
  if (nb::isinstance<nb::str>(value)) return YAML::Node(nb::cast<std::string>(value));
  if (nb::isinstance<nb::dict>(value)) {
    YAML::Node map(YAML::NodeType::Map);
    for (const auto& [key, item] : nb::borrow<nb::dict>(value)) {
      if (!nb::isinstance<nb::str>(key))
        throw NotSupported(key_path + ": keys must be strings, got " +
                           std::string(nb::repr(key).c_str()));
      const std::string name = nb::cast<std::string>(key);
      map[name] = yaml_node_of(item, child_key_path(key_path, name), depth + 1);
    }
    return map;
  }
  if (nb::isinstance<nb::list>(value) || nb::isinstance<nb::tuple>(value)) {
    YAML::Node list(YAML::NodeType::Sequence);
    std::size_t index = 0;
    for (nb::handle item : value)
      list.push_back(yaml_node_of(item, key_path + "[" + std::to_string(index++) + "]", depth + 1));
    return list;
  }
  throw NotSupported(key_path + ": expected a bool, number, string, dict or list, got " +
                     std::string(nb::type_name(value.type()).c_str()));
}

using KeywordSettings = std::vector<std::tuple<std::string, nb::object, std::string>>;

// The run config of keyword settings [(key path, value, keyword)] over the built-in default:
// the same reader and checks as `spkrylov solve --set KEY.PATH=VALUE`, with each value handed
// over as a node, not as text, and errors naming the keyword as the caller wrote it.
RunConfig config_of(const KeywordSettings& settings) {
  std::vector<ConfigOverride> overrides;
  for (const auto& [key_path, value, keyword] : settings)
    overrides.push_back(make_override(key_path, yaml_node_of(value, keyword),
                                      key_path + "=" + std::string(nb::str(value).c_str()),
                                      keyword));
  return default_run_config_with(overrides);
}

nb::dict result_dict(const SolveResult& r) {
  nb::dict d;
  for_each_result_field(r, [&](const char* name, const auto& value) { d[name] = value; });
  d["solve_s"] = r.solve_s;
  d["history_residual"] = r.history.residual;
  d["history_elapsed_s"] = r.history.elapsed_s;
  return d;
}

nb::dict setup_dict(const SetupInfo& s) {
  nb::dict d;
  d["device"] = to_string(s.device);
  d["device_name"] = s.device_name;
  d["operator"] = s.operator_name;
  d["preconditioner"] = app::preconditioner_json_text(s.preconditioner);  // JSON text
  d["device_bytes"] = s.device_bytes;
  d["bytes_per_spmv"] = s.bytes_per_spmv;
  d["setup_s"] = s.setup_s;
  return d;
}

// The library solver in the config's precision behind fp64 host arrays: single precision
// converts b, x and new values on the way in and x on the way out. A progress callback's
// copy_iterate writes values of the solver's type.
class PrecisionSolver {
 public:
  virtual ~PrecisionSolver() = default;
  virtual SolveResult solve(const double* b, double* x, const ProgressCallback& progress) = 0;
  virtual void update_values(const double* values) = 0;
  virtual const SetupInfo& setup_info() const = 0;
  virtual std::size_t rows() const = 0;
};

template <class T>
class TypedSolver final : public PrecisionSolver {
 public:
  // on_device: the arrays are device pointers (double only: the solver reads them in place).
  TypedSolver(const index_t* indptr, const index_t* indices, const double* data, std::size_t nnz,
              index_t rows, index_t cols, const Options& options, bool on_device)
      : values_(converted(data, on_device ? 0 : nnz)),
        solver_(CsrArrays<T>{rows, cols, indptr, indices, values_of(data), on_device}, options),
        b_(static_cast<std::size_t>(rows)),
        x_(static_cast<std::size_t>(rows)) {}

  SolveResult solve(const double* b, double* x, const ProgressCallback& progress) override {
    if constexpr (std::is_same_v<T, double>) {
      return solver_.solve(b, x, progress);
    } else {
      std::copy(b, b + b_.size(), b_.begin());
      std::copy(x, x + x_.size(), x_.begin());
      const SolveResult result = solver_.solve(b_.data(), x_.data(), progress);
      std::copy(x_.begin(), x_.end(), x);
      return result;
    }
  }
  void update_values(const double* values) override {
    if constexpr (std::is_same_v<T, double>) {
      solver_.update_values(values);  // host or device: the solver detects which
    } else {
      std::copy(values, values + values_.size(), values_.begin());
      solver_.update_values(values_.data());
    }
  }
  const SetupInfo& setup_info() const override { return solver_.setup_info(); }
  std::size_t rows() const override { return b_.size(); }

 private:
  // The values in T for a single-precision solver (host arrays only); none for double, whose
  // solver reads the caller's arrays and copies what it keeps.
  static std::vector<T> converted(const double* data, std::size_t nnz) {
    if constexpr (std::is_same_v<T, double>) return {};
    return std::vector<T>(data, data + nnz);
  }
  const T* values_of(const double* data) const {
    if constexpr (std::is_same_v<T, double>)
      return data;
    else
      return values_.data();
  }

  std::vector<T> values_;  // single precision: the matrix values in T
  Solver<T> solver_;
  std::vector<T> b_, x_;
};

// A system given by Python operators (python_operator.hpp: A, and M or none), in float64.
class OperatorSolver final : public PrecisionSolver {
 public:
  OperatorSolver(const UserSystem<double>& system, const Options& options)
      : solver_(system, options), rows_(static_cast<std::size_t>(system.rows)) {
    for (const auto& op : {system.matrix, system.preconditioner})
      if (op) static_cast<PythonOperator&>(*op).set_gpu_solver(solver_.device() == Device::gpu);
  }
  SolveResult solve(const double* b, double* x, const ProgressCallback& progress) override {
    return solver_.solve(b, x, progress);
  }
  void update_values(const double* values) override { solver_.update_values(values); }
  const SetupInfo& setup_info() const override { return solver_.setup_info(); }
  std::size_t rows() const override { return rows_; }

 private:
  Solver<double> solver_;
  std::size_t rows_;
};

// One matrix, set up once (spkrylov.Solver).
class PySolver {
 public:
  PySolver(Vector<const index_t> indptr, Vector<const index_t> indices, Vector<const double> data,
           index_t rows, index_t cols, const KeywordSettings& settings)
      : config_(config_of(settings)) {
    on_device_ = location_of("indptr, indices and data", indptr, indices, data);
    if (on_device_ && single())
      throw NotSupported(
          "precision single takes host arrays (device arrays are used in place, in float64)");
    if (indptr.shape(0) != static_cast<std::size_t>(rows) + 1)
      throw BadInput("indptr has " + std::to_string(indptr.shape(0)) +
                     " entries, expected rows + 1 = " + std::to_string(rows + 1));
    if (indices.shape(0) != data.shape(0))
      throw BadInput("indices and data differ in length (" + std::to_string(indices.shape(0)) +
                     " and " + std::to_string(data.shape(0)) + ")");
    nnz_ = data.shape(0);
    const Options options{config_.solver, spmv_for(config_.spmv, config_.precision),
                          config_.device};
    nb::gil_scoped_release release;
    if (single())
      solver_ = std::make_unique<TypedSolver<float>>(indptr.data(), indices.data(), data.data(),
                                                     nnz_, rows, cols, options, false);
    else
      solver_ = std::make_unique<TypedSolver<double>>(indptr.data(), indices.data(), data.data(),
                                                      nnz_, rows, cols, options, on_device_);
  }

  // A system given by operators: `a` and `m` (or None) are the functions PythonOperator calls,
  // each with a bool attribute host_arrays; diagonal (or None): diag(A), for jacobi.
  PySolver(index_t rows, nb::object a, nb::object m,
           std::optional<HostVector<const double>> diagonal, const KeywordSettings& settings)
      : config_(config_of(settings)) {
    if (single()) throw NotSupported("precision single: user operators work in float64");
    if (rows < 1) throw BadInput("a user operator needs rows >= 1, got " + std::to_string(rows));
    const auto n = static_cast<std::size_t>(rows);
    const auto make = [&](nb::object function) -> std::shared_ptr<UserOperator<double>> {
      if (function.is_none()) return nullptr;
      const bool host_arrays = nb::cast<bool>(function.attr("host_arrays"));
      return operators_.emplace_back(
          std::make_shared<PythonOperator>(std::move(function), n, host_arrays));
    };
    UserSystem<double> system;
    system.rows = rows;
    system.matrix = make(std::move(a));
    system.preconditioner = make(std::move(m));
    if (diagonal) system.diagonal.assign(diagonal->data(), diagonal->data() + diagonal->shape(0));
    // Built with the GIL held: nothing heavy, and the operators' Python objects stay safe.
    solver_ = std::make_unique<OperatorSolver>(
        system, Options{config_.solver, spmv_for(config_.spmv, config_.precision), config_.device});
  }

  // x: the initial guess, overwritten with the solution. on_check (or None): called at every
  // convergence check as on_check(iteration, residual) (the recursive residual norm), with the
  // current iterate copied into `iterate` first (float64, or float32 in single precision);
  // an empty `iterate` asks for no copy.
  nb::dict solve(Vector<const double> b, Vector<double> x, AnyHostVector iterate,
                 nb::object on_check) {
    const bool device = location_of("b and x0", b, x);
    if (device && single())
      throw NotSupported("precision single takes host vectors (device vectors are float64)");
    if (device && solver_->setup_info().device != Device::gpu)
      throw BadInput("b and x0 are on the GPU, the solver runs on the CPU (device=cpu or no GPU)");
    const std::size_t n = solver_->rows();
    if (b.shape(0) != n || x.shape(0) != n)
      throw BadInput("b has " + std::to_string(b.shape(0)) + " and x0 " +
                     std::to_string(x.shape(0)) + " entries, the matrix " + std::to_string(n) +
                     " rows");
    const bool copy_iterate = !on_check.is_none() && iterate.shape(0) != 0;
    if (copy_iterate && (iterate.shape(0) != n ||
                         iterate.itemsize() != (single() ? sizeof(float) : sizeof(double))))
      throw BadInput("the iterate buffer does not hold " + std::to_string(n) +
                     " values of the "
                     "solver's precision");
    bool signalled = false;
    std::optional<nb::python_error> callback_error;
    const ProgressCallback check_signals = [&](const Progress& progress) {
      nb::gil_scoped_acquire acquire;
      if (PyErr_CheckSignals() != 0) {  // the handler's exception (KeyboardInterrupt) is set
        signalled = true;
        progress.request_stop();
        return;
      }
      if (on_check.is_none()) return;
      if (copy_iterate) progress.copy_iterate(iterate.data());
      try {
        on_check(progress.iteration, progress.residual);
      } catch (nb::python_error& error) {  // the callback raised: stop, raise it afterwards
        callback_error.emplace(std::move(error));
        progress.request_stop();
      }
    };
    SolveResult result;
    {
      nb::gil_scoped_release release;
      result = solver_->solve(b.data(), x.data(), check_signals);
    }
    if (signalled) throw nb::python_error();
    if (callback_error) throw std::move(*callback_error);
    return result_dict(result);
  }

  void update_values(Vector<const double> data) {
    if (location_of("update_values' data", data) && single())
      throw NotSupported("precision single takes host values");
    if (data.shape(0) != nnz_)
      throw BadInput("update_values: " + std::to_string(data.shape(0)) +
                     " values given, the matrix has " + std::to_string(nnz_) + " entries");
    nb::gil_scoped_release release;
    solver_->update_values(data.data());
  }

  nb::dict setup_info() const { return setup_dict(solver_->setup_info()); }
  std::string resolved_config() const { return to_yaml(config_); }
  std::string precision() const { return to_string(config_.precision); }

  // Each user operator's completed applications and their host time in seconds (A, then M).
  std::vector<std::tuple<long long, double>> operator_times() const {
    std::vector<std::tuple<long long, double>> times;
    for (const auto& op : operators_) times.emplace_back(op->calls(), op->seconds());
    return times;
  }

  // The garbage collector's view of the operators' Python functions (a user's matvec may
  // reference the Python Solver that holds this one: a cycle through C++).
  int traverse(visitproc visit, void* arg) const {
    for (const auto& op : operators_) Py_VISIT(op->function().ptr());
    return 0;
  }
  void clear() {
    for (const auto& op : operators_) op->release();
  }

 private:
  bool single() const { return config_.precision == Precision::single_precision; }

  RunConfig config_;
  bool on_device_ = false;
  std::size_t nnz_ = 0;
  std::unique_ptr<PrecisionSolver> solver_;
  std::vector<std::shared_ptr<PythonOperator>> operators_;  // a system of user operators
};

}  // namespace

// Slots of _core.Solver for the cyclic garbage collector (nanobind's recipe).
int solver_traverse(PyObject* self, visitproc visit, void* arg) {
  Py_VISIT(Py_TYPE(self));
  if (!nb::inst_ready(self)) return 0;
  return nb::inst_ptr<PySolver>(self)->traverse(visit, arg);
}
int solver_clear(PyObject* self) {
  nb::inst_ptr<PySolver>(self)->clear();
  return 0;
}
PyType_Slot solver_slots[] = {{Py_tp_traverse, reinterpret_cast<void*>(solver_traverse)},
                              {Py_tp_clear, reinterpret_cast<void*>(solver_clear)},
                              {0, nullptr}};

}  // namespace spk::python

NB_MODULE(_core, m) {
  using namespace spk;
  m.doc() = "spkrylov's compiled core; use the spkrylov package, not this module.";
  static nb::object no_device_error =
      nb::steal(PyErr_NewException("spkrylov.NoDeviceError", PyExc_RuntimeError, nullptr));
  m.attr("NoDeviceError") = no_device_error;
  nb::register_exception_translator([](const std::exception_ptr& error, void*) {
    try {
      std::rethrow_exception(error);
    } catch (const OutOfDeviceMemory& e) {
      PyErr_SetString(PyExc_MemoryError, e.what());
    } catch (const NoDevice& e) {
      PyErr_SetString(no_device_error.ptr(), e.what());
    } catch (const BadInput& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const NotSupported& e) {
      PyErr_SetString(PyExc_TypeError, e.what());
    } catch (const Error& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    }
  });
  m.def(
      "solve_config",
      [](const std::string& config_path, const std::vector<std::string>& overrides, bool quiet) {
        app::SolveCommandOptions options;
        options.config_path = config_path;
        options.overrides = overrides;
        options.quiet = quiet;
        std::string json_report;
        options.json_report = &json_report;
        int exit_code = 0;
        {
          nb::gil_scoped_release release;
          exit_code = app::run_solve_command(options);
        }
        return nb::make_tuple(exit_code, json_report);
      },
      nb::arg("config_path"), nb::arg("overrides"), nb::arg("quiet") = true,
      "`spkrylov solve CONFIG --set ...`: the CLI's run, report printed; returns (exit code, "
      "the JSON report as text).");
  m.def(
      "matrix_info",
      [](python::HostVector<const index_t> indptr, python::HostVector<const index_t> indices,
         python::HostVector<const double> data, index_t rows, index_t cols) {
        if (indptr.shape(0) != static_cast<std::size_t>(rows) + 1 ||
            indices.shape(0) != data.shape(0))
          throw BadInput("matrix_info: indptr, indices and data do not describe a " +
                         std::to_string(rows) + "-row CSR matrix");
        // checked as a solver checks its input (columns in range, finite values)
        const CsrMatrix<double> matrix = host_matrix_from_arrays(
            CsrArrays<double>{rows, cols, indptr.data(), indices.data(), data.data(), false},
            SolverOptions{});
        const MatrixStats stats = compute_matrix_stats(matrix);
        nb::list fields;
        for (const auto& [name, value] : matrix_stats_fields(stats))
          fields.append(nb::make_tuple(name, value));
        return nb::make_tuple(fields, format_matrix_stats(stats));
      },
      nb::arg("indptr"), nb::arg("indices"), nb::arg("data"), nb::arg("rows"), nb::arg("cols"),
      "The matrix statistics `spkrylov info` prints: ([(key, JSON value)], table text).");
  m.def(
      "convergence_svg",
      [](const std::string& title, const std::string& residual_label,
         const std::vector<
             std::tuple<std::string, std::vector<double>, std::vector<double>, double>>& runs) {
        std::vector<app::PlotSeries> series;
        for (const auto& [label, residual, elapsed_s, target] : runs) {
          if (residual.size() != elapsed_s.size())
            throw BadInput("convergence_svg: residual and elapsed_s differ in length");
          series.push_back({label, residual, elapsed_s, target});
        }
        return app::convergence_svg(title, residual_label, series);
      },
      nb::arg("title"), nb::arg("residual_label"), nb::arg("runs"),
      "The CLI's convergence plot (SVG text) of runs (label, residual, elapsed_s, target).");
  m.def(
      "check_overrides",
      [](const python::KeywordSettings& settings) { (void)python::config_of(settings); },
      nb::arg("settings"),
      "Checks keyword settings [(key path, value, keyword)] as the YAML reader does; raises.");
  m.attr("cpu_compare_note") = app::cpu_compare_note;
  m.def("result_field_names", &result_field_names,
        "The scalar fields of a solve's result, in report order (frontend/result_fields.hpp).");
  m.def("solver_keys", &solver_key_names, "Every key of solver: (the YAML's), in order.");
  m.def("spmv_keys", &spmv_key_names, "Every key of spmv: (the YAML's), in order.");
  nb::class_<python::PySolver>(m, "Solver", nb::type_slots(python::solver_slots))
      .def(nb::init<python::Vector<const index_t>, python::Vector<const index_t>,
                    python::Vector<const double>, index_t, index_t,
                    const python::KeywordSettings&>(),
           nb::arg("indptr"), nb::arg("indices"), nb::arg("data"), nb::arg("rows"), nb::arg("cols"),
           nb::arg("settings"))
      .def(
          nb::init<index_t, nb::object, nb::object, std::optional<python::HostVector<const double>>,
                   const python::KeywordSettings&>(),
          nb::arg("rows"), nb::arg("a"), nb::arg("m").none(), nb::arg("diagonal").none(),
          nb::arg("settings"))
      .def("solve", &python::PySolver::solve, nb::arg("b"), nb::arg("x"), nb::arg("iterate"),
           nb::arg("on_check").none())
      .def("update_values", &python::PySolver::update_values, nb::arg("data"))
      .def("setup_info", &python::PySolver::setup_info)
      .def("resolved_config", &python::PySolver::resolved_config)
      .def("precision", &python::PySolver::precision)
      .def("operator_times", &python::PySolver::operator_times);
}
