// A typed buffer in device memory that frees itself: linear (count elements) or pitched
// (height rows of width elements, each row starting `pitch` bytes after the previous one, as
// cudaMallocPitch chooses). Every CUDA call is checked; moving data in and out goes through
// cudaMemcpy or, for a pitched buffer, cudaMemcpy2D from and to a tightly packed host array.
#pragma once
#include <cuda_runtime.h>

#include <utility>
#include <vector>

#include "cuda_check.hpp"

template <typename T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    explicit DeviceBuffer(size_t count) : width_(count), height_(1), pitch_(count * sizeof(T)) {
        if (count) CUDA_CHECK(cudaMalloc(&ptr_, count * sizeof(T)));
    }
    static DeviceBuffer pitched(size_t width, size_t height) {
        DeviceBuffer b;
        b.width_ = width, b.height_ = height, b.is_pitched_ = true;
        if (width && height) CUDA_CHECK(cudaMallocPitch(reinterpret_cast<void**>(&b.ptr_), &b.pitch_, width * sizeof(T), height));
        return b;
    }
    // After a kernel faulted the context is lost and cudaFree fails; there is nothing left to free.
    ~DeviceBuffer() {
        if (ptr_) cudaFree(ptr_);
    }
    DeviceBuffer(DeviceBuffer&& other) noexcept { swap(other); }
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
        swap(other);
        return *this;
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;

    T* get() const { return ptr_; }
    size_t count() const { return width_ * height_; }  // elements, padding excluded
    size_t width() const { return width_; }
    size_t height() const { return height_; }
    size_t pitch_bytes() const { return pitch_; }
    size_t bytes_allocated() const { return pitch_ * height_; }

    void upload(const std::vector<T>& host) {
        check_size(host.size());
        if (is_pitched_)
            CUDA_CHECK(cudaMemcpy2D(ptr_, pitch_, host.data(), width_ * sizeof(T), width_ * sizeof(T), height_,
                                    cudaMemcpyHostToDevice));
        else if (!host.empty())
            CUDA_CHECK(cudaMemcpy(ptr_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
    }
    std::vector<T> download() const {
        std::vector<T> host(count());
        if (is_pitched_)
            CUDA_CHECK(cudaMemcpy2D(host.data(), width_ * sizeof(T), ptr_, pitch_, width_ * sizeof(T), height_,
                                    cudaMemcpyDeviceToHost));
        else if (!host.empty())
            CUDA_CHECK(cudaMemcpy(host.data(), ptr_, host.size() * sizeof(T), cudaMemcpyDeviceToHost));
        return host;
    }
    // Every byte of every element (and of the padding) set to `byte`, on `stream`.
    void fill_bytes(int byte, cudaStream_t stream) {
        if (ptr_) CUDA_CHECK(cudaMemset2DAsync(ptr_, pitch_, byte, pitch_, height_, stream));
    }
    // Device-to-device copy of another buffer of the same shape (restoring an input in place).
    void copy_from(const DeviceBuffer& source, cudaStream_t stream) {
        check_size(source.count());
        if (ptr_)
            CUDA_CHECK(cudaMemcpy2DAsync(ptr_, pitch_, source.ptr_, source.pitch_, width_ * sizeof(T), height_,
                                         cudaMemcpyDeviceToDevice, stream));
    }

private:
    void check_size(size_t elements) const {
        if (elements != count()) fail(exit_code::bad_usage, "DeviceBuffer: copy of the wrong size (a bug in the driver)");
    }
    void swap(DeviceBuffer& o) noexcept {
        std::swap(ptr_, o.ptr_), std::swap(width_, o.width_), std::swap(height_, o.height_);
        std::swap(pitch_, o.pitch_), std::swap(is_pitched_, o.is_pitched_);
    }

    T* ptr_ = nullptr;
    size_t width_ = 0, height_ = 0, pitch_ = 0;
    bool is_pitched_ = false;
};
