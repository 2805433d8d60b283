#include "services/opencvservices.h"

#include "image/image.h"
#include "io/imageio.h"
#include "pipelines/blur/blur.h"
#include "pipelines/bow/collection.h"
#include "services/bowopencv.h"

namespace histlab {

void installOpenCvServices() {
    setImageFileReader([](const std::string& path) { return loadImage(path); });
    setImagePagesOpener(openImagePageFile);
    setImageFileWriter(saveImage);
    setBlurPeer(opencvBoxBlur);
    setBowOpenCv(bowThroughOpenCv());
}

} // namespace histlab
